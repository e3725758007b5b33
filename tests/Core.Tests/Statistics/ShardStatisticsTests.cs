using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class ShardStatisticsTests
{
    static Sample At(int shard, int index, long latencyMs, bool warmup = false, ErrorKind error = ErrorKind.None) => new()
    {
        Index = index, Shard = shard, OffsetNs = index * 1_000_000L, LatencyNs = latencyMs * 1_000_000, IsWarmup = warmup, Error = error,
    };

    [Fact]
    public void EachShardIsRankedOnItsOwnByTheRunsDefinitions()
    {
        // Shard 0: 1..100 ms measured, a warm-up of 500 ms; shard 1: 10 × 7 ms and a refused connection.
        var samples = Enumerable.Range(1, 100).Select(i => At(0, i, i)).Append(At(0, 0, 500, warmup: true))
            .Concat(Enumerable.Range(200, 10).Select(i => At(1, i, 7))).Append(At(1, 210, 0, error: ErrorKind.ConnectionRefused)).ToList();

        var shards = ShardStatistics.From(samples);

        Assert.Equal([0, 1], shards.Select(s => s.Shard));
        var first = shards[0];
        Assert.Equal((101, 100, 0), (first.Samples, first.Count, first.Errors));
        Assert.Equal(50_000_000, first.P50Ns); // nearest rank: the 50th of 100
        Assert.Equal(99_000_000, first.P99Ns);
        var second = shards[1];
        Assert.Equal((11, 11, 1), (second.Samples, second.Count, second.Errors));
        Assert.Equal(7_000_000, second.P99Ns); // a transport error has no latency to rank
        Assert.Equal(RunStatistics.From(samples.Where(s => s.Shard == 1).ToList()).RequestsPerSecond, second.RequestsPerSecond);
    }

    [Fact]
    public void ARunWithoutAgentsHasNoShards() =>
        Assert.Empty(ShardStatistics.From([new Sample { Index = 0, LatencyNs = 1 }]));
}
