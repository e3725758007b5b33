using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// Runs spread over runner agents, as real processes on loopback: the published dashboard, two agent
/// processes, and a Kestrel target of known latency in a process of its own that counts what reaches it.
/// Measured times and skews are printed.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class AgentRunTests(PublishedOutput published, ITestOutputHelper output)
{
    /// <summary>A target of known latency, the dashboard, and agents alpha and beta linked, each with a clock offset (measured before they say ready).</summary>
    sealed record Scene(KestrelTarget Target, Dashboard Dashboard, PublishedApp Alpha, PublishedApp Beta) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await Alpha.DisposeAsync();
            await Beta.DisposeAsync();
            await Dashboard.DisposeAsync();
            await Target.DisposeAsync();
        }
    }

    async Task<Scene> StartAsync(TempDirectory dir, Dictionary<string, string?>? settings = null)
    {
        var target = await KestrelTarget.StartAsync();
        Dashboard dashboard;
        try
        {
            dashboard = await Dashboard.StartAsync(published, dir, settings);
        }
        catch
        {
            await target.DisposeAsync();
            throw;
        }
        var scene = new Scene(target, dashboard, dashboard.StartAgent(published, dir, "alpha", "alpha-key"), dashboard.StartAgent(published, dir, "beta", "beta-key"));
        try
        {
            foreach (var name in new[] { "alpha", "beta" })
                await dashboard.UntilAgentAsync(name, linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number);
            return scene;
        }
        catch
        {
            await scene.DisposeAsync();
            throw;
        }
    }

    /// <summary>A 60 s two-agent run against <paramref name="path"/>, once over 100 of its samples have arrived.</summary>
    static async Task<long> LoadedRunAsync(Scene scene, string path)
    {
        var id = await QueueAsync(scene.Dashboard, new { kind = "http", url = scene.Target.Url(path).ToString(), concurrency = 2, durationSeconds = 60, agents = 2 });
        await UntilAsync(scene.Dashboard, id, r => r.GetProperty("completedRequests").GetInt32() > 100, 60);
        return id;
    }

    static Task<long> QueueAsync(Dashboard dashboard, object request) => dashboard.QueueAsync(request);

    static Task<(JsonElement Run, TimeSpan After)> UntilAsync(Dashboard dashboard, long id, Func<JsonElement, bool> done, double seconds) => dashboard.UntilRunAsync(id, done, seconds);

    static bool Final(JsonElement run) => Dashboard.Final(run);

    static JsonElement AgentRow(JsonElement run, string name) =>
        run.GetProperty("agents").EnumerateArray().Single(a => a.GetProperty("agent").GetString() == name);

    [Fact]
    public async Task TwoAgentsDriveOneRunFromOneStartAndEveryRequestIsStoredOnceWithItsAgent()
    {
        using var dir = new TempDirectory();
        await using var scene = await StartAsync(dir, new() { ["Agents__BarrierSeconds"] = "4" });
        var (target, dashboard) = (scene.Target, scene.Dashboard);
        await target.TakeHeldAsync();

        var id = await QueueAsync(dashboard, new { kind = "http", url = target.Url("/delay?ms=2&record=true").ToString(), concurrency = 4, requests = 600, warmupRequests = 20, agents = 2 });
        var (run, _) = await UntilAsync(dashboard, id, Final, 90);
        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());

        // Every request that reached the target is a stored sample, once: 300 + 10 warm-up per agent.
        Assert.Equal(620, (await target.TakeHeldAsync()).Length);
        Assert.Equal(600, run.GetProperty("stats").GetProperty("count").GetInt32());
        Assert.Equal(20, run.GetProperty("stats").GetProperty("warmupCount").GetInt32());
        Assert.Equal(2, run.GetProperty("agentsAsked").GetInt32());
        foreach (var name in new[] { "alpha", "beta" })
        {
            var row = AgentRow(run, name);
            var skew = row.GetProperty("startSkewMs").GetDouble();
            output.WriteLine($"{name}: shard {row.GetProperty("shard").GetInt32()}, start skew {skew:0.000} ms ± {row.GetProperty("clockErrorMs").GetDouble():0.000}, "
                + $"{row.GetProperty("samplesStored").GetInt32()} samples, {row.GetProperty("requestsPerSecond").GetDouble():N0}/s, p50 {row.GetProperty("p50Ms").GetDouble():0.000} ms, p99 {row.GetProperty("p99Ms").GetDouble():0.000} ms");
            Assert.Equal("done", row.GetProperty("status").GetString());
            Assert.Equal(2, row.GetProperty("connections").GetInt32());
            Assert.Equal(310, row.GetProperty("samplesStored").GetInt32());
            Assert.Equal(310, row.GetProperty("samplesMeasured").GetInt64());
            Assert.Equal(Environment.MachineName, row.GetProperty("machine").GetString());
            // Generous: the agents' first load on this 2-core machine JITs as it starts.
            Assert.InRange(skew, -5, 100);
            Assert.InRange(row.GetProperty("p50Ms").GetDouble(), 2, 50); // the target holds each request 2 ms
        }

        // Each sample names its shard; the shards' connections are numbered apart (0-1 and 2-3), and the indexes are one sequence.
        var samples = (await dashboard.Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();
        Assert.Equal(620, samples.Count);
        Assert.Equal(Enumerable.Range(0, 620), samples.Select(s => s.GetProperty("index").GetInt32()).Order());
        foreach (var shard in new[] { 0, 1 })
        {
            var mine = samples.Where(s => s.GetProperty("shard").GetInt32() == shard).ToList();
            Assert.Equal(310, mine.Count);
            Assert.Equal([2 * shard, 2 * shard + 1], mine.Select(s => s.GetProperty("connection").GetInt32()).Distinct().Order());
        }
        Assert.All(samples, s => Assert.True(s.GetProperty("offsetMs").GetDouble() >= 0));

        // The run's page has a row per agent.
        var page = WebUtility.HtmlDecode(await dashboard.Client.GetStringAsync($"/runs/{id}"));
        Assert.Contains("id=\"agent-rows\"", page);
        Assert.Contains("data-field=\"agent\">alpha</td>", page);
        Assert.Contains("data-field=\"agent\">beta</td>", page);

        // Three asked, two linked: the barrier fails the run, saying how many joined; nothing was measured.
        var three = await QueueAsync(dashboard, new { kind = "http", url = target.Url("/delay?ms=2").ToString(), concurrency = 3, requests = 30, agents = 3 });
        var (failed, after) = await UntilAsync(dashboard, three, Final, 30);
        output.WriteLine($"agents: 3 with two linked: {failed.GetProperty("status").GetString()} after {after.TotalSeconds:0.0} s: {failed.GetProperty("error").GetString()}");
        Assert.Equal("failed", failed.GetProperty("status").GetString());
        Assert.StartsWith("2 of 3 agents joined within 4 s (alpha, beta)", failed.GetProperty("error").GetString());
        Assert.Equal(0, failed.GetProperty("completedRequests").GetInt32());
        // No shard of it ran: none is left saying it is ready or waiting.
        Assert.All(failed.GetProperty("agents").EnumerateArray(), a => Assert.Equal("stopped", a.GetProperty("status").GetString()));

        // Both agents are free again after the failed barrier: a run of two completes.
        var again = await QueueAsync(dashboard, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), concurrency = 2, requests = 40, agents = 2 });
        Assert.Equal("completed", (await UntilAsync(dashboard, again, Final, 60)).Run.GetProperty("status").GetString());

        // What cannot be spread is refused at once, naming the field.
        var refused = await dashboard.Client.PostAsJsonAsync("/api/runs", new { kind = "http", url = target.Url("/delay?ms=1").ToString(), concurrency = 1, requests = 10, agents = 2 });
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("\"agents\"", await refused.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task AnAgentKilledMidRunEndsTheRunInterruptedNamingItAndTheOthersSamplesAreKept()
    {
        using var dir = new TempDirectory();
        await using var scene = await StartAsync(dir);
        var dashboard = scene.Dashboard;
        var id = await LoadedRunAsync(scene, "/delay?ms=5");

        var killed = Stopwatch.StartNew();
        Process.GetProcessById(scene.Alpha.Pid).Kill();
        var (run, _) = await UntilAsync(dashboard, id, Final, 30);
        output.WriteLine($"kill -9 of alpha mid-run: run {run.GetProperty("status").GetString()} after {killed.Elapsed.TotalSeconds:0.000} s: {run.GetProperty("error").GetString()}");
        Assert.Equal("interrupted", run.GetProperty("status").GetString());
        Assert.InRange(killed.Elapsed.TotalSeconds, 0, 8);
        Assert.StartsWith("Agent alpha was lost", run.GetProperty("error").GetString());
        Assert.Equal("lost", AgentRow(run, "alpha").GetProperty("status").GetString());
        var kept = AgentRow(run, "beta");
        Assert.Equal("stopped", kept.GetProperty("status").GetString());
        Assert.True(kept.GetProperty("samplesStored").GetInt32() > 50);
        // What the run counts is what is stored: alpha's samples that arrived and beta's.
        var stored = run.GetProperty("agents").EnumerateArray().Sum(a => a.GetProperty("samplesStored").ValueKind == JsonValueKind.Number ? a.GetProperty("samplesStored").GetInt32() : 0);
        Assert.Equal(run.GetProperty("completedRequests").GetInt32(), stored);
    }

    [Fact]
    public async Task AgentsStopTheirLoadWithinTheLeaseWhenTheDashboardHangs()
    {
        using var dir = new TempDirectory();
        await using var scene = await StartAsync(dir);
        var (target, dashboard) = (scene.Target, scene.Dashboard);
        var id = await LoadedRunAsync(scene, "/delay?ms=2&record=true");

        // SIGSTOP: the dashboard's sockets stay open and it says nothing. The agents must stop loading the target
        // once their lease runs out, measured here as the last moment requests still reached the target.
        var stopped = Stopwatch.StartNew();
        Process.Start("kill", ["-STOP", dashboard.App.Pid.ToString()])!.WaitForExit();
        var lastLoad = TimeSpan.Zero;
        try
        {
            while (stopped.Elapsed < TimeSpan.FromSeconds(15) && stopped.Elapsed - lastLoad < TimeSpan.FromSeconds(2))
            {
                if ((await target.TakeHeldAsync()).Length > 0) lastLoad = stopped.Elapsed;
                await Task.Delay(50);
            }
        }
        finally
        {
            Process.Start("kill", ["-CONT", dashboard.App.Pid.ToString()])!.WaitForExit();
        }
        output.WriteLine($"dashboard SIGSTOP'd: the agents' load stopped reaching the target {lastLoad.TotalSeconds:0.000} s later (lease 3 s)");
        Assert.InRange(lastLoad.TotalSeconds, 1.5, 4.5);

        // Resumed, the dashboard finds both links gone: the run ends interrupted, its samples kept.
        var (run, _) = await UntilAsync(dashboard, id, Final, 30);
        output.WriteLine($"then: {run.GetProperty("status").GetString()}: {run.GetProperty("error").GetString()}");
        Assert.Equal("interrupted", run.GetProperty("status").GetString());
        Assert.Contains("was lost", run.GetProperty("error").GetString());
        Assert.True(run.GetProperty("completedRequests").GetInt32() > 100);
    }
}
