using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Agents;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// The same workload on each named agent in turn, as real processes on loopback: the published dashboard and three
/// agent processes, each a "configuration" with its own WEBSITE_DYNAMIC_CACHE, and a Kestrel target that counts what
/// reaches it. Each series must be measured by its own agent's process, one agent at a time, every request stored once.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class OnEachRunTests(PublishedOutput published, ITestOutputHelper output)
{
    static readonly string[] Names = ["cfg0", "cfg1", "cfg2"];

    sealed record Scene(KestrelTarget Target, Dashboard Dashboard, IReadOnlyList<PublishedApp> Agents) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            foreach (var agent in Agents) await agent.DisposeAsync();
            await Dashboard.DisposeAsync();
            await Target.DisposeAsync();
        }
    }

    async Task<Scene> StartAsync(TempDirectory dir)
    {
        var target = await KestrelTarget.StartAsync();
        Dashboard dashboard;
        try
        {
            var settings = new Dictionary<string, string?> { ["Agents__BarrierSeconds"] = "3" };
            foreach (var name in Names) settings[$"Agents__Keys__{name}"] = $"{name}-key";
            dashboard = await Dashboard.StartAsync(published, dir, settings);
        }
        catch
        {
            await target.DisposeAsync();
            throw;
        }
        var agents = Names.Select((name, i) => dashboard.StartAgent(published, dir, name, $"{name}-key", new() { ["WEBSITE_DYNAMIC_CACHE"] = $"{i}" })).ToList();
        var scene = new Scene(target, dashboard, agents);
        try
        {
            foreach (var name in Names)
                await dashboard.UntilAgentAsync(name, linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number, seconds: 60);
            return scene;
        }
        catch
        {
            await scene.DisposeAsync();
            throw;
        }
    }

    static JsonElement Row(JsonElement run, string name) => run.GetProperty("agents").EnumerateArray().Single(a => a.GetProperty("agent").GetString() == name);

    static async Task<List<JsonElement>> SamplesAsync(Dashboard dashboard, long id) =>
        (await dashboard.Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();

    /// <summary>
    /// The samples in time order, cut where the agent changes: one stretch per turn. Each turn must end before the
    /// next begins (no two agents loading at once), and the agents take them in each round's drawn order.
    /// </summary>
    void AssertTurns(List<JsonElement> samples, int agents, int rounds, IReadOnlyList<int>? only = null, int? perTurn = null)
    {
        var ordered = samples.OrderBy(s => s.GetProperty("offsetMs").GetDouble()).ToList();
        var turns = new List<(int Shard, double From, double To, int Count)>();
        foreach (var s in ordered)
        {
            var shard = s.GetProperty("shard").GetInt32();
            var from = s.GetProperty("offsetMs").GetDouble();
            var to = from + s.GetProperty("latencyMs").GetDouble();
            if (turns.Count > 0 && turns[^1].Shard == shard) turns[^1] = (shard, turns[^1].From, Math.Max(turns[^1].To, to), turns[^1].Count + 1);
            else turns.Add((shard, from, to, 1));
        }
        output.WriteLine(string.Join("\n", turns.Select(t => $"  agent {t.Shard}: {t.From:0.0}-{t.To:0.0} ms, {t.Count} samples")));
        var expected = Enumerable.Range(0, rounds).SelectMany(r => OnEachRun.TurnOrder(r, agents)).Where(a => only is null || only.Contains(a)).ToList();
        // A round's last agent may lead the next round too: its two turns are one stretch here.
        var stretches = expected.Where((a, i) => i == 0 || expected[i - 1] != a).ToList();
        Assert.Equal(stretches, turns.Select(t => t.Shard));
        if (perTurn is { } n)
            for (int i = 0, at = 0; i < turns.Count; i++)
            {
                var repeated = expected.Skip(at).TakeWhile(a => a == turns[i].Shard).Count();
                Assert.Equal(n * repeated, turns[i].Count);
                at += repeated;
            }
        for (var i = 1; i < turns.Count; i++) Assert.True(turns[i].From >= turns[i - 1].To, $"turn {i} began at {turns[i].From} ms, before turn {i - 1} ended at {turns[i - 1].To} ms");
    }

    [Fact(Timeout = 600_000)]
    public async Task EachAgentMeasuresTheWholeWorkloadInItsOwnTurnsAndEverySampleIsItsOwn()
    {
        using var dir = new TempDirectory();
        await using var scene = await StartAsync(dir);
        var (target, dashboard) = (scene.Target, scene.Dashboard);
        await target.TakeHeldAsync();
        // The rounds' leaders are drawn: over three rounds of three agents they are not always the first.
        Assert.Contains(Enumerable.Range(0, 3), r => OnEachRun.TurnOrder(r, 3)[0] != 0);

        // HTTP: the same 40 requests (and 4 warm-up) on each agent, three times each.
        var id = await dashboard.QueueAsync(new { kind = "http", url = target.Url("/delay?ms=2&record=true").ToString(), requests = 40, warmupRequests = 4, onEach = Names, rounds = 3 });
        var (run, after) = await dashboard.UntilRunAsync(id, Dashboard.Final, 180);
        output.WriteLine($"http on each of 3, 3 rounds: {run.GetProperty("status").GetString()} after {after.TotalSeconds:0.0} s");
        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());
        Assert.Equal(3 * 3 * 44, (await target.TakeHeldAsync()).Length); // every request that reached the target, and no other
        Assert.Equal(360, run.GetProperty("stats").GetProperty("count").GetInt32());
        Assert.Equal(36, run.GetProperty("stats").GetProperty("warmupCount").GetInt32());
        Assert.Equal(Names, run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        Assert.All(run.GetProperty("series").EnumerateArray(), s => Assert.Equal(120, s.GetProperty("stats").GetProperty("count").GetInt32()));
        for (var i = 0; i < Names.Length; i++)
        {
            var row = Row(run, Names[i]);
            var environment = row.GetProperty("environment");
            Assert.Equal("done", row.GetProperty("status").GetString());
            Assert.Equal(i, row.GetProperty("shard").GetInt32());
            Assert.Equal(3, row.GetProperty("turns").GetInt32());
            Assert.Equal(132, row.GetProperty("samplesStored").GetInt32());
            Assert.Equal(132, row.GetProperty("samplesMeasured").GetInt64());
            // Measured by that agent's own process, as it recorded itself when it said ready.
            Assert.Equal(scene.Agents[i].Pid, environment.GetProperty("processId").GetInt32());
            Assert.Equal($"{i}", environment.GetProperty("platformVariables").GetProperty("WEBSITE_DYNAMIC_CACHE").GetString());
        }
        var samples = await SamplesAsync(dashboard, id);
        Assert.Equal(396, samples.Count);
        Assert.Equal(Enumerable.Range(0, 396), samples.Select(s => s.GetProperty("index").GetInt32()).Order());
        Assert.All(samples, s => Assert.Equal(Names[s.GetProperty("shard").GetInt32()], s.GetProperty("series").GetString()));
        // Each agent's connections are its own: one each here (concurrency 1), numbered apart.
        Assert.Equal(3, samples.Select(s => s.GetProperty("connection").GetInt32()).Distinct().Count());
        Assert.All(samples.GroupBy(s => s.GetProperty("shard").GetInt32()), g => Assert.Single(g.Select(s => s.GetProperty("connection").GetInt32()).Distinct()));
        AssertTurns(samples, 3, 3, perTurn: 44);

        // The file system: each agent measures its own disk, the run's series per agent and phase.
        var files = await dashboard.QueueAsync(new { kind = "fileSystem", directories = new[] { "temp" }, fileCount = 40, filesPerDirectory = 10, largeFileMiB = 1, onEach = Names, rounds = 2 });
        var (fileRun, fileAfter) = await dashboard.UntilRunAsync(files, Dashboard.Final, 180);
        output.WriteLine($"file system on each of 3, 2 rounds: {fileRun.GetProperty("status").GetString()} after {fileAfter.TotalSeconds:0.0} s");
        Assert.True(fileRun.GetProperty("status").GetString() == "completed", fileRun.ToString());
        var fileSamples = await SamplesAsync(dashboard, files);
        var perAgent = fileSamples.GroupBy(s => s.GetProperty("shard").GetInt32()).ToDictionary(g => g.Key, g => g.ToList());
        Assert.Equal([0, 1, 2], perAgent.Keys.Order());
        // The same operations on each agent in each turn: one count for all, twice over.
        Assert.Single(perAgent.Values.Select(v => v.Count).Distinct());
        Assert.Equal(0, perAgent[0].Count % 2);
        Assert.True(perAgent[0].Count >= 2 * 4 * 40, $"{perAgent[0].Count} samples");
        foreach (var (shard, mine) in perAgent)
        {
            Assert.All(mine, s => Assert.StartsWith($"{Names[shard]}/temp/", s.GetProperty("series").GetString()));
            var row = Row(fileRun, Names[shard]);
            Assert.Equal(2, row.GetProperty("turns").GetInt32());
            Assert.Equal(mine.Count, row.GetProperty("samplesStored").GetInt32());
            Assert.Equal(scene.Agents[shard].Pid, row.GetProperty("environment").GetProperty("processId").GetInt32());
        }
        Assert.Equal(fileSamples.Count, fileRun.GetProperty("completedRequests").GetInt32());
        AssertTurns(fileSamples, 3, 2, perTurn: perAgent[0].Count / 2);

        // Its pages and answers read (whatever they make of series per agent, never a 500).
        foreach (var finished in new[] { id, files })
            foreach (var path in new[] { $"/runs/{finished}", $"/api/runs/{finished}?format=markdown", $"/api/runs/{finished}?format=text", $"/api/runs/{finished}/analysis" })
            {
                var page = await dashboard.Client.GetAsync(path);
                Assert.True(page.IsSuccessStatusCode, $"{path}: {(int)page.StatusCode} {await page.Content.ReadAsStringAsync()}");
            }

        // An agent that never links: its row says so, the others measure all their rounds, and the run fails naming it.
        var ghost = await dashboard.QueueAsync(new { kind = "http", url = target.Url("/delay?ms=1&record=true").ToString(), requests = 20, onEach = new[] { "cfg0", "ghost", "cfg2" }, rounds = 2 });
        var (ghostRun, _) = await dashboard.UntilRunAsync(ghost, Dashboard.Final, 120);
        output.WriteLine($"with an agent that never links: {ghostRun.GetProperty("status").GetString()}: {ghostRun.GetProperty("error").GetString()}");
        Assert.Equal("failed", ghostRun.GetProperty("status").GetString());
        Assert.StartsWith("ghost did not join within 3 s", ghostRun.GetProperty("error").GetString());
        Assert.Contains("cfg0, cfg2 completed all 2 rounds", ghostRun.GetProperty("error").GetString());
        Assert.Equal("failed", Row(ghostRun, "ghost").GetProperty("status").GetString());
        Assert.Equal("ghost did not join within 3 s", Row(ghostRun, "ghost").GetProperty("reason").GetString());
        Assert.Equal(JsonValueKind.Null, Row(ghostRun, "ghost").GetProperty("environment").ValueKind);
        foreach (var name in new[] { "cfg0", "cfg2" })
        {
            Assert.Equal("done", Row(ghostRun, name).GetProperty("status").GetString());
            Assert.Equal(40, Row(ghostRun, name).GetProperty("samplesStored").GetInt32());
        }
        Assert.Equal(80, (await target.TakeHeldAsync()).Length);
        AssertTurns(await SamplesAsync(dashboard, ghost), 3, 2, only: [0, 2], perTurn: 20);
    }

    [Fact(Timeout = 600_000)]
    public async Task AnAgentKilledInItsTurnIsLostWithItsReasonWhileTheOthersCompleteAndNothingIsLostAndACancelStopsTheTurns()
    {
        using var dir = new TempDirectory();
        await using var scene = await StartAsync(dir);
        var dashboard = scene.Dashboard;
        var id = await dashboard.QueueAsync(new { kind = "http", url = scene.Target.Url("/delay?ms=2").ToString(), durationSeconds = 4, onEach = Names, rounds = 2 });

        // cfg1 goes second in round 1: killed once the dashboard has some of its samples.
        await dashboard.UntilRunAsync(id, r => r.GetProperty("agents").ValueKind == JsonValueKind.Array
            && Row(r, "cfg1").GetProperty("samplesReceived").GetInt64() > 50, 120);
        var killed = Stopwatch.StartNew();
        Process.GetProcessById(scene.Agents[1].Pid).Kill();
        var (run, _) = await dashboard.UntilRunAsync(id, Dashboard.Final, 120);
        output.WriteLine($"cfg1 killed in its turn: {run.GetProperty("status").GetString()} {killed.Elapsed.TotalSeconds:0.0} s later: {run.GetProperty("error").GetString()}");

        Assert.Equal("failed", run.GetProperty("status").GetString());
        var lost = Row(run, "cfg1");
        Assert.Equal("lost", lost.GetProperty("status").GetString());
        Assert.StartsWith("cfg1 was lost in round 1 of 2 (", lost.GetProperty("reason").GetString());
        Assert.EndsWith($"its {lost.GetProperty("samplesReceived").GetInt64():N0} samples are kept", lost.GetProperty("reason").GetString());
        Assert.Equal(0, lost.GetProperty("turns").GetInt32());
        Assert.StartsWith("cfg1 was lost in round 1 of 2", run.GetProperty("error").GetString());
        Assert.Contains("cfg0, cfg2 completed all 2 rounds", run.GetProperty("error").GetString());
        foreach (var name in new[] { "cfg0", "cfg2" })
        {
            Assert.Equal("done", Row(run, name).GetProperty("status").GetString());
            Assert.Equal(2, Row(run, name).GetProperty("turns").GetInt32());
        }
        // Nothing lost: what the run counts is what is stored, the killed agent's samples that arrived included.
        var rows = run.GetProperty("agents").EnumerateArray().ToList();
        Assert.All(rows, r => Assert.Equal(r.GetProperty("samplesReceived").GetInt64(), r.GetProperty("samplesStored").GetInt32()));
        Assert.Equal(run.GetProperty("completedRequests").GetInt32(), rows.Sum(r => r.GetProperty("samplesStored").GetInt32()));
        Assert.True(lost.GetProperty("samplesStored").GetInt32() > 50);
        var samples = await SamplesAsync(dashboard, id);
        Assert.Equal(run.GetProperty("completedRequests").GetInt32(), samples.Count);

        // Cancelled in cfg0's turn: cfg0 is stopped, cfg2 never takes its turn, and what cfg0 measured is kept.
        var cancelled = await dashboard.QueueAsync(new { kind = "http", url = scene.Target.Url("/delay?ms=2").ToString(), durationSeconds = 30, onEach = new[] { "cfg0", "cfg2" }, rounds = 2 });
        await dashboard.UntilRunAsync(cancelled, r => r.GetProperty("agents").ValueKind == JsonValueKind.Array && Row(r, "cfg0").GetProperty("samplesReceived").GetInt64() > 50, 60);
        var asked = Stopwatch.StartNew();
        Assert.Equal(System.Net.HttpStatusCode.Accepted, (await dashboard.Client.PostAsync($"/api/runs/{cancelled}/cancel", null)).StatusCode);
        var (stopped, _) = await dashboard.UntilRunAsync(cancelled, Dashboard.Final, 30);
        output.WriteLine($"cancelled in cfg0's turn: {stopped.GetProperty("status").GetString()} {asked.Elapsed.TotalSeconds:0.0} s later");
        Assert.Equal("cancelled", stopped.GetProperty("status").GetString());
        Assert.InRange(asked.Elapsed.TotalSeconds, 0, 10);
        Assert.All(stopped.GetProperty("agents").EnumerateArray(), r => Assert.Equal("stopped", r.GetProperty("status").GetString()));
        Assert.Equal(0, Row(stopped, "cfg2").GetProperty("samplesReceived").GetInt64());
        Assert.Equal(stopped.GetProperty("completedRequests").GetInt32(), (await SamplesAsync(dashboard, cancelled)).Count);
        Assert.Equal(Row(stopped, "cfg0").GetProperty("samplesReceived").GetInt64(), stopped.GetProperty("completedRequests").GetInt32());
    }
}
