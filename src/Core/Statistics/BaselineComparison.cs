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

    /// <param name="unitsOf">
    /// Per what each item is compared, when a sample carries several units (a batch request carries its entities):
    /// how many a sample of the item carries. Times are then per unit, throughput is units per second, and the total
    /// time is the time spent per unit delivered. Null: per sample.
    /// </param>
    public static IReadOnlyList<ComparisonRow> Compare(IReadOnlyList<(string Name, RunStatistics Statistics)> items, string baseline, Func<string, int>? unitsOf = null) =>
        Compare(items.Select(i => (i.Name, unitsOf is null ? ValuesOf(i.Statistics) : PerUnit(i.Statistics, unitsOf(i.Name)))).ToList(), baseline);

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

    /// <summary>The figures per unit, for samples of <paramref name="units"/> units each (a percentile ÷ a constant is the percentile of the divided values).</summary>
    public static IReadOnlyDictionary<ComparedMetric, double?> PerUnit(RunStatistics s, int units)
    {
        var values = ValuesOf(s);
        var delivered = (double)(s.Count - s.Errors) * units;
        return values.ToDictionary(v => v.Key, v => v.Key switch
        {
            ComparedMetric.Errors => v.Value,
            ComparedMetric.Throughput => v.Value * units,
            ComparedMetric.TotalTime => delivered > 0 ? v.Value / delivered : null,
            _ => v.Value / units,
        });
    }
}
