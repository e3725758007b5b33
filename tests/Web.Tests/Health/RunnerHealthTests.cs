using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.Web.Health;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Tests.Health;

public class RunnerHealthTests
{
    [Fact]
    public async Task WhileTheRunnersPassesFailTheHealthCheckSaysWhyAndSinceWhen()
    {
        var time = new ManualTime(DateTimeOffset.Parse("2026-11-21T12:00:00Z"));
        var pulse = new RunnerPulse(time);
        var services = new ServiceCollection().AddSingleton(pulse).BuildServiceProvider();
        var check = new RunnerHealthCheck(services, Options.Create(new RunnerOptions()), time);

        pulse.Beat();
        Assert.Equal(HealthStatus.Healthy, (await check.CheckHealthAsync(new HealthCheckContext())).Status);

        pulse.Fail("the database or its disk is full (SQLITE_FULL)");
        time.Now = time.Now.AddSeconds(12);
        pulse.Fail("the database or its disk is full (SQLITE_FULL)"); // a repeat keeps the first time
        var failing = await check.CheckHealthAsync(new HealthCheckContext());
        Assert.Equal(HealthStatus.Unhealthy, failing.Status);
        Assert.Equal("The runner's passes have failed for 12 s: the database or its disk is full (SQLITE_FULL). Queued runs wait until it passes again.", failing.Description);

        pulse.Beat();
        Assert.Equal(HealthStatus.Healthy, (await check.CheckHealthAsync(new HealthCheckContext())).Status);
    }

    sealed class ManualTime(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;
        public override DateTimeOffset GetUtcNow() => Now;
    }
}
