using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// One side of a comparison: a whole run (key "12") or one series of a run (key "12/read-miss", a cache
/// phase). <see cref="Samples"/> are the item's samples in index order.
/// </summary>
public sealed record ComparedItem(string Key, string Label, Run Run, string? Series, IReadOnlyList<Sample> Samples, RunStatistics Statistics)
{
    long[]? sorted;

    /// <summary>Latencies of the measured requests that got an answer (what the percentiles rank), in request order.</summary>
    public long[] RankedLatencies() =>
        Samples.Where(s => !s.IsWarmup && !s.Error.IsTransportError()).Select(s => s.LatencyNs).ToArray();

    /// <summary>The same, sorted ascending; computed once per item however many comparisons use it.</summary>
    public long[] SortedLatencies()
    {
        if (sorted is null)
        {
            var values = RankedLatencies();
            Array.Sort(values);
            sorted = values;
        }
        return sorted;
    }

    public static bool TryParseKey(string key, out long runId, out string? series)
    {
        var slash = key.IndexOf('/');
        series = slash < 0 ? null : key[(slash + 1)..];
        return long.TryParse(slash < 0 ? key : key[..slash], out runId) && runId > 0 && series is not "";
    }
}
