namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>
/// A completed run of a benchmark as the change rule sees it: its place in the history, the parameters it ran
/// with (a run whose parameters differ from the previous run's starts a history of its own) and its percentiles.
/// </summary>
/// <param name="Parameters">Its parameters in one canonical form, compared for equality only.</param>
public sealed record HistoryRun(long RunId, string Parameters, long MedianNs, long P95Ns, long P99Ns)
{
    /// <summary>The figure a detector and a test read for <paramref name="metric"/>.</summary>
    public long Of(ChangeMetric metric) => metric.Permille switch
    {
        500 => MedianNs,
        950 => P95Ns,
        _ => P99Ns,
    };
}

/// <summary>A percentile whose level over the runs is watched for changes.</summary>
public sealed record ChangeMetric(string Name, int Permille)
{
    public static readonly ChangeMetric Median = new("median", 500), P95 = new("p95", 950), P99 = new("p99", 990);
    public static readonly IReadOnlyList<ChangeMetric> All = [Median, P95, P99];

    public static ChangeMetric? Find(string name) => All.FirstOrDefault(m => m.Name == name);
}
