using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// One shard of a run spread over agents (its agent's samples), by the run's own definitions
/// (<see cref="RunStatistics.From"/>): measured requests, their rate over the shard's own elapsed time, and the
/// nearest-rank median and p99 of the answered ones, so a slow agent stands out beside the others.
/// </summary>
/// <param name="Samples">Every sample of the shard, warm-up included; <paramref name="Count"/> is the measured ones.</param>
public sealed record ShardStatistics(int Shard, int Samples, int Count, int Errors, double RequestsPerSecond, long? P50Ns, long? P99Ns)
{
    /// <summary>Per shard, in shard order; empty for a run without agents.</summary>
    /// <param name="isIterations">A series of whole iterations (a journey's): stored samples, but no requests of the figures.</param>
    public static IReadOnlyList<ShardStatistics> From(IReadOnlyList<Sample> samples, Func<string, bool>? isIterations = null) =>
        samples.Where(s => s.Shard is not null).GroupBy(s => s.Shard!.Value).OrderBy(g => g.Key).Select(g =>
        {
            var stats = RunStatistics.From(isIterations is null ? g.ToList() : g.Where(s => s.Series is null || !isIterations(s.Series)).ToList());
            return new ShardStatistics(g.Key, g.Count(), stats.Count, stats.Errors, stats.RequestsPerSecond, stats.Latency?.ValueAt(500), stats.Latency?.ValueAt(990));
        }).ToList();
}
