using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>Two runner processes on one database: by default Runner:MaxParallelRuns holds for both together.</summary>
public sealed class ParallelLimitTests
{
    static async Task<List<Run>> RunSixOnTwoRunnersAsync(string parallelLimit, string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var first = await RunnerHost.CreateAsync(new() { ["Runner:ParallelLimit"] = parallelLimit }, provider: provider);
        await using var second = await RunnerHost.CreateAsync(new(first.DatabaseSettings) { ["Runner:ParallelLimit"] = parallelLimit });
        var ids = new List<long>();
        for (var i = 0; i < 6; i++)
            ids.Add(await first.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=5").ToString(), Requests = 40 }, null, default)));

        await Task.WhenAll(first.Host.StartAsync(), second.Host.StartAsync());
        var runs = new List<Run>();
        foreach (var id in ids) runs.Add(await first.UntilFinalAsync(id, seconds: 60));
        await Task.WhenAll(first.Host.StopAsync(), second.Host.StopAsync());
        Assert.All(runs, r => Assert.Equal(RunStatus.Completed, r.Status));
        return runs;
    }

    static bool Overlap(Run a, Run b) => a.StartedUtcMs < b.EndedUtcMs && b.StartedUtcMs < a.EndedUtcMs;

    public static TheoryProviders Providers => TestDatabase.Providers;

    [Theory, MemberData(nameof(Providers))]
    public async Task TwoRunnersOnOneDatabaseNeverMeasureAtTheSameTime(string provider)
    {
        var runs = await RunSixOnTwoRunnersAsync("database", provider);

        for (var i = 0; i < runs.Count; i++)
            for (var j = i + 1; j < runs.Count; j++)
                Assert.False(Overlap(runs[i], runs[j]), $"runs {runs[i].Id} ({runs[i].RunnerName}) and {runs[j].Id} ({runs[j].RunnerName}) overlapped");
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task WithTheLimitPerRunnerEachRunnerMeasuresOnItsOwn(string provider)
    {
        var runs = await RunSixOnTwoRunnersAsync("runner", provider);

        Assert.Contains(runs, a => runs.Any(b => b.Id != a.Id && b.RunnerName != a.RunnerName && Overlap(a, b)));
    }
}
