using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.Http;

/// <summary>
/// The cache-in-front answer: the cold first request against the median of the warm rest, as one ratio
/// ("first request 411 ms, the other 99: 0.80 ms median, 514× faster warm").
/// </summary>
/// <param name="TimesFasterWarm">The first request's latency ÷ the warm median; null when the rest has no answered request or a zero median.</param>
public sealed record ColdWarm(long FirstNs, bool FirstFailed, int WarmCount, long? WarmMedianNs, double? TimesFasterWarm)
{
    public static ColdWarm? From(ColdStart? cold)
    {
        if (cold is null) return null;
        var warm = cold.WarmRest;
        double? ratio = warm is { P50Ns: > 0 } ? cold.First.LatencyNs / (double)warm.P50Ns : null;
        return new ColdWarm(cold.First.LatencyNs, cold.First.Error != Runs.ErrorKind.None, warm?.Count ?? 0, warm?.P50Ns, ratio);
    }

    /// <summary>"514× faster warm", "1.20× slower warm" (a warm rest slower than the first request), "no faster warm".</summary>
    public string RatioText => TimesFasterWarm switch
    {
        null => "no warm request to compare",
        >= 1 and var r => $"{Ratios.Times(r)} faster warm",
        var r => $"{Ratios.Times(1 / r.Value)} slower warm",
    };
}
