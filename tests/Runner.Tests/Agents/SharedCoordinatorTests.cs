using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Runner.Tests.Agents;

/// <summary>
/// Two dashboards on one database each hold a coordinator of runs over agents (AgentRunCoordinator, as hosted in
/// the dashboard): each queued run is coordinated by exactly one of them, both take runs, and neither takes a run
/// the other holds. No agent is linked, so every run ends failed after the agents' barrier, saying why.
/// </summary>
public sealed class SharedCoordinatorTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    [Theory, MemberData(nameof(Providers))]
    public async Task EachRunOverAgentsIsCoordinatedByExactlyOneOfTwoDashboards(string provider)
    {
        const int Runs = 8;
        var settings = new Dictionary<string, string?> { ["Agents:BarrierSeconds"] = "1", ["Runner:MaxParallelRuns"] = "4" };
        // The coordinator as the dashboard adds it (AddAgentRuns), beside its runner.
        await using var first = await RunnerHost.CreateAsync(settings, s => s.AddAgentRuns(), provider);
        await using var second = await RunnerHost.CreateAsync(new(first.DatabaseSettings) { ["Agents:BarrierSeconds"] = "1", ["Runner:MaxParallelRuns"] = "4" }, s => s.AddAgentRuns());
        var ids = await first.WithDbAsync(async db =>
        {
            var runs = Enumerable.Range(0, Runs).Select(i => new Run
            {
                Kind = HttpKind.KindName, Status = RunStatus.Queued, QueuedUtcMs = i, Agents = 2,
                ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 10, Concurrency = 2 }),
            }).ToList();
            db.Runs.AddRange(runs);
            await db.SaveChangesAsync();
            return runs.Select(r => r.Id).ToList();
        });

        await Task.WhenAll(first.Host.StartAsync(), second.Host.StartAsync());
        var mostCoordinatorsAtOnce = 0;
        var deadline = DateTime.UtcNow.AddSeconds(90);
        while (await first.WithDbAsync(db => db.Runs.AnyAsync(r => r.Status == RunStatus.Queued || r.Status == RunStatus.Running)))
        {
            Assert.True(DateTime.UtcNow < deadline, "the runs over agents did not all end within 90 s: " + string.Join(" | ", first.Logs.Messages(Microsoft.Extensions.Logging.LogLevel.Warning)));
            var running = await first.WithDbAsync(db => db.Runs.Where(r => r.Status == RunStatus.Running).Select(r => r.RunnerName).ToListAsync());
            mostCoordinatorsAtOnce = Math.Max(mostCoordinatorsAtOnce, running.Distinct().Count());
            // A coordinator sees one run at a time: two running under one name would be one dashboard coordinating twice.
            Assert.Equal(running.Count, running.Distinct().Count());
            await Task.Delay(20);
        }
        await Task.WhenAll(first.Host.StopAsync(), second.Host.StopAsync());

        var runsAfter = await first.WithDbAsync(db => db.Runs.AsNoTracking().Where(r => ids.Contains(r.Id)).ToListAsync());
        Assert.All(runsAfter, r =>
        {
            Assert.Equal(RunStatus.Failed, r.Status);
            Assert.Contains("agents joined", r.Error);
        });
        // Each run was started once, by one of the two: the processors' own log lines, counted over both dashboards.
        var started = first.Logs.Entries.Concat(second.Logs.Entries).Select(e => e.Message).Where(m => m.EndsWith("(http) started")).ToList();
        Assert.Equal(ids.Select(id => $"Run {id} (http) started").Order(), started.Order());
        var byFirst = first.Logs.Entries.Count(e => e.Message.EndsWith("(http) started"));
        Assert.True(byFirst is > 0 and < Runs, $"the first dashboard coordinated {byFirst} of {Runs} runs: both must take part");
        Assert.Equal(2, mostCoordinatorsAtOnce);
    }
}
