using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Runner.Tests.Scheduling;

public class RunnerServiceTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    static long Now => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    static Run RunningSince(long heartbeatMs) => new()
    {
        Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Running,
        QueuedUtcMs = heartbeatMs, StartedUtcMs = heartbeatMs, HeartbeatUtcMs = heartbeatMs, RunnerName = "crashed/1",
    };

    [Theory, MemberData(nameof(Providers))]
    public async Task ARunLeftRunningByACrashBecomesInterruptedOnStart(string provider)
    {
        await using var host = await RunnerHost.CreateAsync(provider: provider);
        var (orphan, alive) = await host.WithDbAsync(async db =>
        {
            var orphan = RunningSince(Now - 10 * 60_000);
            var alive = RunningSince(Now); // another runner's run, heartbeat fresh: must be left alone
            db.Runs.AddRange(orphan, alive);
            await db.SaveChangesAsync();
            return (orphan.Id, alive.Id);
        });

        await host.Host.StartAsync();
        await Eventually(async () => await StatusAsync(host, orphan) == RunStatus.Interrupted);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Running, await StatusAsync(host, alive));
        var interrupted = await host.WithDbAsync(db => db.Runs.SingleAsync(r => r.Id == orphan));
        Assert.Contains("no heartbeat", interrupted.Error);
        Assert.NotNull(interrupted.EndedUtcMs);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task AQueuedRunIsClaimedOnceEvenByCompetingRunners(string provider)
    {
        await using var host = await RunnerHost.CreateAsync(provider: provider);
        await host.WithDbAsync(async db =>
        {
            db.Runs.Add(new Run { Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Queued, QueuedUtcMs = Now });
            return await db.SaveChangesAsync();
        });
        var store = host.Services.GetRequiredService<RunStore>();

        var claims = await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(() => store.TryClaimAsync(CancellationToken.None))));

        Assert.Single(claims, c => c is not null);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task RunsWithAgentsAreTheCoordinatorsAndNeitherClaimerJumpsTheQueue(string provider)
    {
        await using var host = await RunnerHost.CreateAsync(provider: provider);
        var ids = await host.WithDbAsync(async db =>
        {
            var runs = new[] { (int?)null, 2, null }.Select(agents => new Run { Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Queued, QueuedUtcMs = Now, Agents = agents }).ToList();
            db.Runs.AddRange(runs);
            await db.SaveChangesAsync();
            return runs.Select(r => r.Id).ToList();
        });
        var store = host.Services.GetRequiredService<RunStore>();
        async Task Finish(long id) => await host.WithDbAsync(db => db.Runs.Where(r => r.Id == id).ExecuteUpdateAsync(set => set.SetProperty(r => r.Status, RunStatus.Completed)));

        // The coordinator waits for the older run of the runner's; the runner takes it.
        Assert.Null(await store.TryClaimAsync(CancellationToken.None, withAgents: true));
        Assert.Equal(ids[0], (await store.TryClaimAsync(CancellationToken.None))?.Id);
        await Finish(ids[0]);
        // Then the runner does not pass the run with agents, which the coordinator takes.
        Assert.Null(await store.TryClaimAsync(CancellationToken.None));
        Assert.Equal(ids[1], (await store.TryClaimAsync(CancellationToken.None, withAgents: true))?.Id);
        await Finish(ids[1]);
        Assert.Null(await store.TryClaimAsync(CancellationToken.None, withAgents: true));
        Assert.Equal(ids[2], (await store.TryClaimAsync(CancellationToken.None))?.Id);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ADueCronSlotQueuesExactlyOneRun(string provider)
    {
        await using var host = await RunnerHost.CreateAsync(provider: provider);
        await host.WithDbAsync(async db =>
        {
            db.Benchmarks.Add(new Benchmark
            {
                Name = "every minute", Kind = HttpKind.KindName, CronSchedule = "* * * * *", CreatedUtcMs = Now - 5 * 60_000,
                LastScheduledUtcMs = Now - 5 * 60_000,
                ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 1 }),
            });
            db.Benchmarks.Add(new Benchmark
            {
                Name = "disabled", Kind = HttpKind.KindName, CronSchedule = "* * * * *", CreatedUtcMs = Now - 5 * 60_000, Enabled = false,
                ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 1 }),
            });
            return await db.SaveChangesAsync();
        });
        var cron = host.Services.GetRequiredService<CronScheduler>();

        var first = await cron.EnqueueDueAsync(CancellationToken.None);
        var second = await cron.EnqueueDueAsync(CancellationToken.None);

        Assert.Equal((1, 0), (first, second));
        var run = await host.WithDbAsync(db => db.Runs.Include(r => r.Benchmark).SingleAsync());
        Assert.Equal(("every minute", RunStatus.Queued), (run.Benchmark!.Name, run.Status));
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ABenchmarkOnAgentsQueuesItsRunsOnAgentsAndOneWhoseLoadNoLongerDividesIsRefused(string provider)
    {
        await using var host = await RunnerHost.CreateAsync(provider: provider);
        await host.WithDbAsync(async db =>
        {
            db.Benchmarks.Add(new Benchmark
            {
                Name = "on agents", Kind = HttpKind.KindName, CronSchedule = "* * * * *", CreatedUtcMs = Now - 5 * 60_000, LastScheduledUtcMs = Now - 5 * 60_000, Agents = 2,
                ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 10, Concurrency = 2 }),
            });
            return await db.SaveChangesAsync();
        });

        Assert.Equal(1, await host.Services.GetRequiredService<CronScheduler>().EnqueueDueAsync(CancellationToken.None));
        var run = await host.WithDbAsync(db => db.Runs.SingleAsync());
        Assert.Equal(2, run.Agents);
        Assert.Null(await host.Services.GetRequiredService<RunStore>().TryClaimAsync(CancellationToken.None)); // the coordinator's, not the runner's

        // One whose stored load no longer divides (edited by hand, or stored under other limits) is refused, saying why.
        var benchmark = await host.WithDbAsync(db => db.Benchmarks.AsNoTracking().SingleAsync());
        benchmark.ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 10, Concurrency = 1 });
        using var scope = host.Services.CreateScope();
        var refused = await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(benchmark, CancellationToken.None);
        Assert.False(refused.IsValid);
        Assert.Contains("concurrency 1 cannot be divided between 2 agents", refused.Errors["agents"][0]);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task AQueuedRunIsExecutedAndEverySampleIsStored(string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(new() { ["Runner:SampleBatchSize"] = "7" }, provider: provider);
        var runId = await host.EnqueueAsync(queue =>
            queue.EnqueueAsync(new HttpParameters { Url = target.Url("/ok").ToString(), Requests = 50, Concurrency = 3, WarmupRequests = 4 }, null, default));

        await host.Host.StartAsync();
        await Eventually(async () => (await StatusAsync(host, runId)).IsFinal());
        await host.Host.StopAsync();

        var run = await host.WithDbAsync(db => db.Runs.SingleAsync(r => r.Id == runId));
        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(54, run.CompletedRequests);
        Assert.Equal(54, await host.WithDbAsync(db => RunSamples.CountAsync(db, runId)));
        Assert.Contains("\"processorCount\"", run.EnvironmentJson);
    }

    static Task<RunStatus> StatusAsync(RunnerHost host, long id) =>
        host.WithDbAsync(db => db.Runs.Where(r => r.Id == id).Select(r => r.Status).SingleAsync());

    static async Task Eventually(Func<Task<bool>> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!await condition())
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException("Condition not met within 30 s.");
            await Task.Delay(50);
        }
    }
}
