using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>
/// A run's heartbeat can go stale while its runner is alive and measuring: a database locked past the busy
/// timeout holds heartbeats up as well as samples. Staleness must then never end the run under the runner's
/// feet, and the run's outcome must be the true one. Heartbeats every 5 s against a stale bound of 2 s make
/// every run look stale between two heartbeats, as a long lock would.
/// </summary>
public sealed class StaleHeartbeatTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    static readonly Dictionary<string, string?> SlowHeartbeats = new() { ["Runner:HeartbeatIntervalMs"] = "5000", ["Runner:StaleAfterSeconds"] = "2" };

    [Theory, MemberData(nameof(Providers))]
    public async Task ARunnerNeverEndsARunItIsStillMeasuringForItsStaleHeartbeat(string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(SlowHeartbeats, provider: provider);
        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), DurationSeconds = 4 }, null, default));

        await host.Host.StartAsync();
        var run = await host.UntilFinalAsync(runId, seconds: 30);
        await host.Host.StopAsync();

        Assert.Equal((RunStatus.Completed, (string?)null), (run.Status, run.Error));
        Assert.Equal((await host.SamplesAsync(runId)).Count, run.CompletedRequests);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ARunAnotherRunnerEndedAsStaleIsTakenBackByItsLiveRunnerAndEndsWithItsTrueOutcome(string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var owner = await RunnerHost.CreateAsync(SlowHeartbeats, provider: provider);
        var runId = await owner.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), DurationSeconds = 6 }, null, default));
        await owner.Host.StartAsync();
        while ((await owner.RunAsync(runId)).Status != RunStatus.Running) await Task.Delay(20);

        // A second runner on the same database: it sees the owner's heartbeat go stale and ends the run.
        await using var other = await RunnerHost.CreateAsync(new(owner.DatabaseSettings) { ["Runner:StaleAfterSeconds"] = "2" });
        await other.Host.StartAsync();
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while ((await owner.RunAsync(runId)).Status != RunStatus.Interrupted)
        {
            Assert.True(DateTime.UtcNow < deadline, "the other runner never found the heartbeat stale");
            await Task.Delay(20);
        }
        await other.Host.StopAsync();

        var run = await UntilNotInterruptedAsync(owner, runId);
        await owner.Host.StopAsync();

        Assert.Equal((RunStatus.Completed, (string?)null), (run.Status, run.Error));
        Assert.Equal((await owner.SamplesAsync(runId)).Count, run.CompletedRequests);
    }

    /// <summary>The owner's next heartbeat takes the run back as running; then it ends as it really ended.</summary>
    static async Task<Run> UntilNotInterruptedAsync(RunnerHost host, long runId)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (true)
        {
            var run = await host.RunAsync(runId);
            if (run.Status is not (RunStatus.Interrupted or RunStatus.Running)) return run;
            Assert.True(DateTime.UtcNow < deadline, $"still {run.Status}: {run.Error}");
            await Task.Delay(50);
        }
    }
}
