using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>
/// PostgreSQL restarted during a run (a failover, an upgrade): the load goes on, the samples measured meanwhile
/// wait in the writer's buffer and are written by COPY once the server is back, and the run ends completed with
/// every sample stored. A cluster of the test's own: restarting the shared one would disturb other tests.
/// </summary>
public sealed class PostgreSqlRestartTests
{
    [Fact]
    public async Task SamplesMeasuredWhileTheServerRestartsAreStoredWhenItIsBack()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var server = await PostgreSqlServer.StartAsync();
        var connectionString = await server.CreateDatabaseAsync();
        await using var host = await RunnerHost.CreateAsync(new()
        {
            ["Database:Provider"] = "postgresql",
            ["ConnectionStrings:results"] = connectionString,
            ["Runner:StorageStallSeconds"] = "30",
            ["Runner:StaleAfterSeconds"] = "60",
        });
        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=2").ToString(), DurationSeconds = 8 }, null, default));
        await host.Host.StartAsync();
        while ((await host.RunAsync(runId)).CompletedRequests < 50) await Task.Delay(50);

        server.Stop();
        await Task.Delay(TimeSpan.FromSeconds(3));
        await server.StartAgainAsync();

        var run = await host.UntilFinalAsync(runId, seconds: 90);
        await host.Host.StopAsync();
        Assert.Equal((RunStatus.Completed, (string?)null), (run.Status, run.Error));
        Assert.Equal(run.MeasuredSamples, run.CompletedRequests);
        Assert.Equal(run.CompletedRequests, (await host.SamplesAsync(runId)).Count);
        Assert.Contains(host.Logs.Entries, e => e.Message.Contains("PostgreSQL", StringComparison.Ordinal)); // the outage was noticed, not missed
    }
}
