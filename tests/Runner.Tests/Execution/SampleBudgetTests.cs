using BenchDashboard.Core;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>A closed run with a duration cannot know how many samples it will make: at the budget it stops, completed, saying so.</summary>
public sealed class SampleBudgetTests
{
    [Fact]
    public async Task ARunThatReachesTheSampleBudgetStopsThereCompletedWithEverySampleKept()
    {
        await using var host = await RunnerHost.CreateAsync(new() { ["RunLimits:MaxSamplesPerRun"] = "20000" });
        // In-process writes make hundreds of thousands of samples a second: 30 s would make millions.
        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new CacheParameters { Phases = [CachePhase.Write], DurationSeconds = 30, KeyCount = 10 }, null, default));

        await host.Host.StartAsync();
        var run = await host.UntilFinalAsync(runId, seconds: 30);
        await host.Host.StopAsync();

        Assert.Equal((RunStatus.Completed, (string?)null), (run.Status, run.Error));
        Assert.True(run.EndedUtcMs - run.StartedUtcMs < 20_000, "the run went on past its budget");
        var stored = (await host.SamplesAsync(runId)).Count;
        Assert.InRange(stored, 20_000, 20_100); // the budget, and the few operations in flight when it was reached
        Assert.Equal(stored, run.CompletedRequests);
        Assert.Contains("Stopped at the sample budget of 20,000 samples (RunLimits:MaxSamplesPerRun)", Json.Deserialize<RunNotes>(run.NotesJson!).Warnings.Single());
    }
}
