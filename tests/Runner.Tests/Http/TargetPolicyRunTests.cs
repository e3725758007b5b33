using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using BenchDashboard.Core.Benchmarks.Http;

namespace BenchDashboard.Runner.Tests.Http;

public class TargetPolicyRunTests
{
    [Fact]
    public async Task TheAddressConnectedToIsCheckedSoARunValidatedEarlierCannotReachARefusedAddress()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(new() { ["Targets:AllowLoopback"] = "false" });
        // Stored as if it had been validated when "localhost" still resolved somewhere allowed (DNS rebinding).
        var url = $"http://localhost:{target.BaseUri.Port}/ok";
        var runId = await host.WithDbAsync(async db =>
        {
            var run = new Run { Kind = HttpKind.KindName, ParametersJson = Json.Serialize(new HttpParameters { Url = url, Requests = 20 }), Status = RunStatus.Queued, QueuedUtcMs = 1 };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            return run.Id;
        });

        await host.Host.StartAsync();
        var finished = await host.UntilFinalAsync(runId, seconds: 30);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("loopback", finished.Error);
        Assert.Equal(0, await host.WithDbAsync(db => db.Samples.CountAsync(s => s.RunId == runId)));
    }
}
