using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// Issue 43's local flow end to end: an HTTP run at <c>{{self}}</c> on each of three configuration processes
/// (<see cref="LocalConfigurations"/>), so each configuration measures its own site from inside it, in turns.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class ConfigurationOnEachTests(PublishedOutput published, ITestOutputHelper output)
{
    static JsonElement Row(JsonElement run, string name) => run.GetProperty("agents").EnumerateArray().Single(a => a.GetProperty("agent").GetString() == name);

    static async Task<List<JsonElement>> SamplesAsync(Dashboard dashboard, long id) =>
        (await dashboard.Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();

    [Fact(Timeout = 600_000)]
    public async Task EachConfigurationMeasuresItsOwnSiteAndEachSeriesIsItsProcesss()
    {
        using var dir = new TempDirectory();
        var keys = LocalConfigurations.Keys(3);
        await using var dashboard = await Dashboard.StartAsync(published, dir, LocalConfigurations.DashboardSettings(keys));
        await using var configurations = LocalConfigurations.Start(published, dir, dashboard, keys);
        await configurations.UntilLinkedAsync(dashboard);
        var names = configurations.All.Select(c => c.Name).ToArray();

        // /target/cacheable is slow (coldMs) for the first request its process serves, and only that one: each series
        // has exactly one cold request, its first, only if every configuration measured its own site.
        var id = await dashboard.QueueAsync(new { kind = "http", url = "{{self}}/target/cacheable?coldMs=300", requests = 20, onEach = names, rounds = 2 });
        var (run, after) = await dashboard.UntilRunAsync(id, Dashboard.Final, 180);
        output.WriteLine($"{{{{self}}}} on each of 3 configurations, 2 rounds: {run.GetProperty("status").GetString()} after {after.TotalSeconds:0.0} s");
        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());
        Assert.Equal(names, run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));

        var samples = await SamplesAsync(dashboard, id);
        Assert.Equal(120, samples.Count);
        Assert.Equal(120, run.GetProperty("completedRequests").GetInt32());
        Assert.All(samples, s => Assert.Equal(200, s.GetProperty("statusCode").GetInt32()));
        foreach (var c in configurations.All)
        {
            var row = Row(run, c.Name);
            Assert.Equal("done", row.GetProperty("status").GetString());
            Assert.Equal(40, row.GetProperty("samplesStored").GetInt32());
            var environment = row.GetProperty("environment");
            Assert.Equal(c.App.Pid, environment.GetProperty("processId").GetInt32());
            Assert.Equal((c.Index % 3).ToString(), environment.GetProperty("platformVariables").GetProperty("WEBSITE_DYNAMIC_CACHE").GetString());

            var mine = samples.Where(s => s.GetProperty("series").GetString() == c.Name).OrderBy(s => s.GetProperty("offsetMs").GetDouble()).ToList();
            Assert.Equal(40, mine.Count);
            Assert.All(mine, s => Assert.Equal(c.Index, s.GetProperty("shard").GetInt32()));
            var latencies = mine.Select(s => s.GetProperty("latencyMs").GetDouble()).ToList();
            output.WriteLine($"{c.Name}: first {latencies[0]:0.0} ms, the other 39 at most {latencies.Skip(1).Max():0.0} ms");
            Assert.True(latencies[0] >= 300, $"{c.Name}'s first request took {latencies[0]} ms: not its own site's cold one");
            Assert.All(latencies.Skip(1), ms => Assert.True(ms < 300, $"{c.Name}: a second cold request ({ms} ms), so another site's"));
        }

        // Turns: one configuration at a time, in each round's drawn order (a round's last may lead the next: one stretch).
        var stretches = new List<(int Shard, double From, double To)>();
        foreach (var s in samples.OrderBy(s => s.GetProperty("offsetMs").GetDouble()))
        {
            var (shard, from) = (s.GetProperty("shard").GetInt32(), s.GetProperty("offsetMs").GetDouble());
            var to = from + s.GetProperty("latencyMs").GetDouble();
            if (stretches.Count > 0 && stretches[^1].Shard == shard) stretches[^1] = (shard, stretches[^1].From, Math.Max(stretches[^1].To, to));
            else stretches.Add((shard, from, to));
        }
        var order = Enumerable.Range(0, 2).SelectMany(round => BenchDashboard.Web.Agents.OnEachRun.TurnOrder(round, 3)).ToList();
        Assert.Equal(order.Where((a, i) => i == 0 || order[i - 1] != a), stretches.Select(t => t.Shard));
        for (var i = 1; i < stretches.Count; i++)
            Assert.True(stretches[i].From >= stretches[i - 1].To, $"turn {i} began at {stretches[i].From} ms, before turn {i - 1} ended at {stretches[i - 1].To} ms");
    }

    [Fact(Timeout = 600_000)]
    public async Task AConfigurationKilledInItsTurnFailsItsSeriesWithTheReasonWhileTheOthersComplete()
    {
        using var dir = new TempDirectory();
        var keys = LocalConfigurations.Keys(3);
        await using var dashboard = await Dashboard.StartAsync(published, dir, LocalConfigurations.DashboardSettings(keys));
        await using var configurations = LocalConfigurations.Start(published, dir, dashboard, keys);
        await configurations.UntilLinkedAsync(dashboard);
        var names = configurations.All.Select(c => c.Name).ToArray();
        var id = await dashboard.QueueAsync(new { kind = "http", url = "{{self}}/target/delay?ms=2", durationSeconds = 4, onEach = names, rounds = 2 });

        // cfg1 killed once the dashboard has some of its samples.
        await dashboard.UntilRunAsync(id, r => r.GetProperty("agents").ValueKind == JsonValueKind.Array && Row(r, "cfg1").GetProperty("samplesReceived").GetInt64() > 50, 120);
        var killed = Stopwatch.StartNew();
        Process.GetProcessById(configurations.All[1].App.Pid).Kill();
        var (run, _) = await dashboard.UntilRunAsync(id, Dashboard.Final, 120);
        output.WriteLine($"cfg1 killed in its turn: {run.GetProperty("status").GetString()} {killed.Elapsed.TotalSeconds:0.0} s later: {run.GetProperty("error").GetString()}");

        Assert.Equal("failed", run.GetProperty("status").GetString());
        var lost = Row(run, "cfg1");
        Assert.Equal("lost", lost.GetProperty("status").GetString());
        Assert.StartsWith("cfg1 was lost in round", lost.GetProperty("reason").GetString());
        foreach (var name in new[] { "cfg0", "cfg2" })
        {
            Assert.Equal("done", Row(run, name).GetProperty("status").GetString());
            Assert.Equal(2, Row(run, name).GetProperty("turns").GetInt32());
        }
        // Every request accounted for: what arrived is stored, the killed configuration's samples included.
        var rows = run.GetProperty("agents").EnumerateArray().ToList();
        Assert.All(rows, r => Assert.Equal(r.GetProperty("samplesReceived").GetInt64(), r.GetProperty("samplesStored").GetInt32()));
        Assert.Equal(run.GetProperty("completedRequests").GetInt32(), rows.Sum(r => r.GetProperty("samplesStored").GetInt32()));
        Assert.Equal(run.GetProperty("completedRequests").GetInt32(), (await SamplesAsync(dashboard, id)).Count);
        Assert.True(lost.GetProperty("samplesStored").GetInt32() > 50);
    }
}
