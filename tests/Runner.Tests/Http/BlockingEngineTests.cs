using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>Where blocking sends (<see cref="RunnerOptions.HttpBlockingUpTo"/>) must not be used.</summary>
public sealed class BlockingEngineTests
{
    const long Ms = 1_000_000;

    [Fact]
    public async Task AnOpenRunKeepsItsScheduleThoughItsConnectionsAreFewEnoughToBlock()
    {
        await using var target = await KestrelTarget.StartAsync();

        // 100 /s of a 15 ms target on 4 connections: sent asynchronously, each starts when due. Were the pacer to send
        // with a blocking call it would wait 15 ms for every 10 ms slot and fall about a second behind by the middle.
        var (samples, stats, _) = await HttpRun.ExecuteAsync(new HttpParameters
        {
            Url = target.Url("/delay?ms=15").ToString(), Model = LoadModel.Open, Rate = 100, DurationSeconds = 2, Concurrency = 4,
        }, blockingUpTo: 1024);

        Assert.Equal(200, samples.Count);
        Assert.Equal(0, stats.Errors);
        // The median, not the worst: a busy machine may stall the pacer now and then, never for half the run.
        Assert.True(stats.Lag!.P50Ns < 250 * Ms, $"lag p50 {stats.Lag.P50Ns / 1e6:F1} ms");
    }
}
