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
    public static IReadOnlyList<ShardStatistics> From(IReadOnlyList<Sample> samples, Func<string, bool>? isIterations = null)
    {
        var table = SampleTable.Of(samples);
        return From(table, table.AllRows(), isIterations);
    }

    /// <summary>As <see cref="From(IReadOnlyList{Sample}, Func{string, bool}?)"/>, over the rows <paramref name="rows"/> of a table (each shard's in their order).</summary>
    public static IReadOnlyList<ShardStatistics> From(SampleTable t, int[] rows, Func<string, bool>? isIterations = null)
    {
        var shards = new SortedSet<int>();
        foreach (var r in rows) if (t.Shard(r) is { } shard) shards.Add(shard);
        return shards.Select(shard =>
        {
            var own = SampleTable.Where(rows, r => t.Shard(r) == shard);
            var requests = isIterations is null ? own : SampleTable.Where(own, r => t.Series(r) is not { } name || !isIterations(name));
            var stats = RunStatistics.From(t, requests);
            return new ShardStatistics(shard, own.Length, stats.Count, stats.Errors, stats.RequestsPerSecond, stats.Latency?.ValueAt(500), stats.Latency?.ValueAt(990));
        }).ToList();
    }
}
