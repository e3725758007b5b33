using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.TestSupport;

/// <summary>
/// The regression rule before change points, kept only to be measured beside its successor (bench/change-evaluation.cs):
/// a run against its trailing baseline, the median of the previous runs' medians and of their p95s, flagged when
/// either is more than a threshold above it.
/// </summary>
public sealed record RegressionCheck(int BaselineRuns, long BaselineMedianNs, long BaselineP95Ns, double MedianChange, double P95Change, double ThresholdPercent)
{
    public bool MedianRegressed => MedianChange * 100 > ThresholdPercent;
    public bool P95Regressed => P95Change * 100 > ThresholdPercent;
    public bool IsFlagged => MedianRegressed || P95Regressed;

    /// <summary>
    /// The previous runs to judge run <paramref name="index"/> of <paramref name="ordered"/> (oldest first) by:
    /// up to <paramref name="trailing"/> runs immediately before it.
    /// </summary>
    public static IReadOnlyList<T> Previous<T>(IReadOnlyList<T> ordered, int index, int trailing) =>
        ordered.Skip(Math.Max(0, index - trailing)).Take(Math.Min(index, trailing)).ToList();

    /// <summary>Fewer than 3 previous runs with latencies, or none for this run: no baseline to judge by (null).</summary>
    public static RegressionCheck? Evaluate(RunSummary current, IReadOnlyList<RunSummary> previous, double thresholdPercent)
    {
        var usable = previous.Where(p => p.MedianNs is not null && p.P95Ns is not null).ToList();
        if (usable.Count < 3 || current.MedianNs is not { } median || current.P95Ns is not { } p95) return null;
        var baseMedian = MedianOf(usable.Select(p => p.MedianNs!.Value));
        var baseP95 = MedianOf(usable.Select(p => p.P95Ns!.Value));
        if (baseMedian <= 0 || baseP95 <= 0) return null;
        return new RegressionCheck(usable.Count, baseMedian, baseP95, (double)median / baseMedian - 1, (double)p95 / baseP95 - 1, thresholdPercent);
    }

    /// <summary>The nearest-rank median, as everywhere else.</summary>
    static long MedianOf(IEnumerable<long> values)
    {
        var sorted = values.ToArray();
        Array.Sort(sorted);
        return Percentile.NearestRank(sorted, 500);
    }
}
