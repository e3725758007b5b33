using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>A journey's live figures, as the runner stores them with each heartbeat: of its requests, its iterations apart.</summary>
public sealed class JourneyLiveTests
{
    [Fact]
    public async Task WhileAJourneyRunsItsLiveFiguresAreItsRequestsAndItsIterationsAreCountedApart()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync();
        var step = (string name, int ms) => new HttpStep { Name = name, Url = target.Url($"/delay?ms={ms}").ToString() };
        var p = new HttpParameters { Steps = [step("quick", 2), step("slow", 6)], DurationSeconds = 20, Concurrency = 2 };
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(p, null, default));
        await host.Host.StartAsync();

        LiveSnapshot? live = null;
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (live?.Iterations is not >= 50)
        {
            Assert.True(DateTime.UtcNow < deadline, $"no live figures of 50 iterations: {Core.Json.Serialize(live)}");
            await Task.Delay(100);
            var run = await host.RunAsync(runId);
            if (run.LiveJson is { } json) live = Core.Json.Deserialize<LiveSnapshot>(json);
        }
        await host.WithDbAsync(db => db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(set => set.SetProperty(r => r.CancelRequested, true)));
        await host.UntilFinalAsync(runId);
        await host.Host.StopAsync();

        // Two requests an iteration: each finished iteration's two, and at most one of each of the two workers' under way.
        var iterations = live.Iterations!.Value;
        Assert.InRange(live.Measured, 2 * iterations, 2 * iterations + 2);
        Assert.Equal(["quick", "slow", JourneyValidator.IterationSeries], live.Series!.Select(s => s.Name));
        var row = live.Series!.Single(s => s.Name == JourneyValidator.IterationSeries);
        Assert.Equal(iterations, row.Measured);
        // The run's median is a request's (2 or 6 ms and a little), never an iteration's (both, 8 ms and more).
        Assert.True(live.P50Ns < row.P50Ns, $"run median {live.P50Ns} ns, iteration median {row.P50Ns} ns");
    }
}
