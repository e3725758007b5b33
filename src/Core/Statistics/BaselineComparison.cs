namespace BenchDashboard.Core.Statistics;

/// <summary>The figures of go-wrk's summary table, in the order the source document listed them.</summary>
public enum ComparedMetric { TotalTime, Mean, Median, P90, P95, P99, Max, Throughput, Errors }

/// <summary>One compared item's figures and each as a percentage of the baseline's (null where undefined).</summary>
public sealed record ComparisonRow(
    string Name, bool IsBaseline,
    IReadOnlyDictionary<ComparedMetric, double?> Values,
    IReadOnlyDictionary<ComparedMetric, double?> PercentOfBaseline);

/// <summary>
/// The baseline comparison: every item's figures as a percentage of one baseline item (value ÷ baseline ×
/// 100, so 75 % of the baseline's median is 25 % faster; for throughput above 100 % is better). Durations
/// are in nanoseconds, throughput per second. Pure: the caller supplies the statistics.
/// </summary>
public static class BaselineComparison
{
    public static readonly ComparedMetric[] Metrics = Enum.GetValues<ComparedMetric>();

    public static IReadOnlyList<ComparisonRow> Compare(IReadOnlyList<(string Name, RunStatistics Statistics)> items, string baseline) =>
        Compare(items.Select(i => (i.Name, ValuesOf(i.Statistics))).ToList(), baseline);

    /// <summary>As above, for figures already taken from the statistics (a group's percentiles are its runs' mean).</summary>
    public static IReadOnlyList<ComparisonRow> Compare(IReadOnlyList<(string Name, IReadOnlyDictionary<ComparedMetric, double?> Values)> items, string baseline)
    {
        var baselineItem = items.FirstOrDefault(i => i.Name == baseline);
        if (baselineItem.Values is null) throw new ArgumentException($"'{baseline}' is not among the compared items.", nameof(baseline));
        var baseValues = baselineItem.Values;

        return items.Select(item =>
        {
            var values = item.Values;
            var percent = Metrics.ToDictionary(m => m, m =>
                values[m] is { } v && baseValues[m] is { } b && b != 0 ? v / b * 100 : (double?)null);
            return new ComparisonRow(item.Name, item.Name == baseline, values, percent);
        }).ToList();
    }

    public static IReadOnlyDictionary<ComparedMetric, double?> ValuesOf(RunStatistics s)
    {
        var l = s.Latency;
        return new Dictionary<ComparedMetric, double?>
        {
            [ComparedMetric.TotalTime] = s.ElapsedNs,
            [ComparedMetric.Mean] = l?.MeanNs,
            [ComparedMetric.Median] = l?.P50Ns,
            [ComparedMetric.P90] = l?.P90Ns,
            [ComparedMetric.P95] = l?.P95Ns,
            [ComparedMetric.P99] = l?.P99Ns,
            [ComparedMetric.Max] = l?.MaxNs,
            [ComparedMetric.Throughput] = s.SucceededPerSecond,
            [ComparedMetric.Errors] = s.Errors,
        };
    }
}
