using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>Several runners on one database, one without a run's named connection: it leaves the run to one that has it.</summary>
public sealed class MissingConnectionTests
{
    [Fact]
    public async Task ARunnerWithoutARunsConnectionLeavesItQueuedSayingWhyAndOneWithItRunsIt()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var without = await RunnerHost.CreateAsync();
        await using var with = await RunnerHost.CreateAsync(new(without.DatabaseSettings) { ["ConnectionStrings:cache9"] = redis.ConnectionString });
        var id = await with.EnqueueAsync(q => q.EnqueueAsync(new CacheParameters { Backend = CacheBackend.Redis, Connection = "cache9", Requests = 20, Phases = [CachePhase.Write] }, null, default));

        await without.Host.StartAsync();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        Run waiting;
        while ((waiting = await without.RunAsync(id)).WaitingFor is null && DateTime.UtcNow < deadline) await Task.Delay(50);
        await Task.Delay(500); // a few more polls: it is still left alone
        waiting = await without.RunAsync(id);
        Assert.Equal(RunStatus.Queued, waiting.Status);
        Assert.Contains("'cache9'", waiting.WaitingFor);
        Assert.Contains("has none", waiting.WaitingFor);

        await with.Host.StartAsync();
        var run = await with.UntilFinalAsync(id, seconds: 60);
        await Task.WhenAll(without.Host.StopAsync(), with.Host.StopAsync());

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Null(run.WaitingFor);
        Assert.NotEqual(waiting.WaitingFor!.Split("runner ")[^1].Split(' ')[0], run.RunnerName);
        Assert.Equal(20, run.CompletedRequests);
    }
}
