using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// One side of a comparison: a whole run (key "12") or one series of a run (key "12/read-miss", a cache
/// phase). Its figures come from the run's digest; <see cref="SortedLatencies"/> are its answered latencies,
/// sorted, for the verdicts to resample, and <see cref="Shape"/> its chart data.
/// </summary>
public sealed record ComparedItem(string Key, string Label, Run Run, string? Series, RunStatistics Statistics, IReadOnlyList<long> SortedLatencies, LatencyShape Shape)
{
    public static bool TryParseKey(string key, out long runId, out string? series)
    {
        var slash = key.IndexOf('/');
        series = slash < 0 ? null : key[(slash + 1)..];
        return long.TryParse(slash < 0 ? key : key[..slash], out runId) && runId > 0 && series is not "";
    }
}
