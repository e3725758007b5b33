using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// A journey (sign in → orders → detail on the tests' own server) run by agents, as real processes on loopback:
/// spread over two agents, and the whole journey on each of them. Every iteration is accounted for: the target's
/// count of journey requests, the samples stored per agent and step, the series and the step table all agree.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class JourneyAgentTests(PublishedOutput published, ITestOutputHelper output)
{
    static readonly string[] Steps = ["signin", "orders", "detail"];
    static readonly string[] Series = [.. Steps, "iteration"];

    static object[] Journey(KestrelTarget target) =>
    [
        new
        {
            name = "signin", method = "POST", url = target.Url("/journey/signin").ToString(),
            headers = new Dictionary<string, string> { ["Content-Type"] = "application/json" },
            body = """{"user":"u{{connection}}","password":"secret"}""",
            extract = new[] { new { name = "token", json = "$.token" } }, checks = new[] { new { status = 200 } },
        },
        new
        {
            name = "orders", url = target.Url("/journey/orders").ToString(), headers = new Dictionary<string, string> { ["Authorization"] = "Bearer {{token}}" },
            extract = new[] { new { name = "first", json = "$.items[0].id" } }, checks = new object[] { new { status = 200 }, new { json = "$.items", exists = true } },
        },
        new
        {
            name = "detail", url = target.BaseUri + "journey/orders/{{first}}", headers = new Dictionary<string, string> { ["Authorization"] = "Bearer {{token}}" },
            checks = new[] { new { json = "$.status", equals = "shipped" } },
        },
    ];

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

    async Task<Scene> StartAsync(TempDirectory dir)
    {
        var target = await KestrelTarget.StartAsync();
        Dashboard dashboard;
        try
        {
            dashboard = await Dashboard.StartAsync(published, dir, new() { ["Agents__BarrierSeconds"] = "3" });
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
                await dashboard.UntilAgentAsync(name, linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number, seconds: 60);
            return scene;
        }
        catch
        {
            await scene.DisposeAsync();
            throw;
        }
    }

    static async Task<long> ServedAsync(KestrelTarget target)
    {
        using var client = new HttpClient();
        return long.Parse(await client.GetStringAsync(target.Url("/journey/served")));
    }

    static int CountOf(JsonElement run, string series) =>
        run.GetProperty("series").EnumerateArray().Single(s => s.GetProperty("name").GetString() == series).GetProperty("stats").GetProperty("count").GetInt32();

    static int ErrorsOf(JsonElement run, string series) =>
        run.GetProperty("series").EnumerateArray().Single(s => s.GetProperty("name").GetString() == series).GetProperty("stats").GetProperty("errors").GetInt32();

    static JsonElement AgentRow(JsonElement run, string name) => run.GetProperty("agents").EnumerateArray().Single(a => a.GetProperty("agent").GetString() == name);

    async Task<(JsonElement Run, List<JsonElement> Samples, string Page, string Markdown)> RunToEndAsync(Scene scene, object request)
    {
        var id = await scene.Dashboard.QueueAsync(request);
        var (run, after) = await scene.Dashboard.UntilRunAsync(id, Dashboard.Final, 180);
        output.WriteLine($"run {id}: {run.GetProperty("status").GetString()} after {after.TotalSeconds:0.0} s");
        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());
        var samples = (await scene.Dashboard.Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();
        var page = WebUtility.HtmlDecode(await scene.Dashboard.Client.GetStringAsync($"/runs/{id}"));
        return (run, samples, page, await scene.Dashboard.Client.GetStringAsync($"/api/runs/{id}?format=markdown"));
    }

    [Fact(Timeout = 600_000)]
    public async Task AJourneySpreadOverTwoAgentsAndOnEachOfThemAccountsForEveryIterationPerStep()
    {
        using var dir = new TempDirectory();
        await using var scene = await StartAsync(dir);
        var target = scene.Target;
        var served = await ServedAsync(target);

        // Spread: 40 iterations and 4 warm-up over two agents with two connections each, 20 + 2 on each agent.
        var (run, samples, page, markdown) = await RunToEndAsync(scene, new { kind = "http", steps = Journey(target), requests = 40, warmupRequests = 4, concurrency = 4, agents = 2 });
        Assert.Equal(3 * 44, await ServedAsync(target) - served); // every step of every iteration reached the target once
        served = await ServedAsync(target);
        Assert.Equal(Series, run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        foreach (var series in Series)
        {
            Assert.Equal(40, CountOf(run, series));
            Assert.Equal(0, ErrorsOf(run, series));
        }
        Assert.Equal(3 * 40, run.GetProperty("stats").GetProperty("count").GetInt32()); // the run counts requests, its iterations apart
        Assert.Equal(40, run.GetProperty("iterations").GetInt32());
        Assert.Equal(4 * 44, samples.Count);
        Assert.Equal(Enumerable.Range(0, 4 * 44), samples.Select(s => s.GetProperty("index").GetInt32()).Order());
        foreach (var (name, shard) in new[] { ("alpha", 0), ("beta", 1) })
        {
            var row = AgentRow(run, name);
            Assert.Equal("done", row.GetProperty("status").GetString());
            Assert.Equal(shard, row.GetProperty("shard").GetInt32());
            Assert.Equal(4 * 22, row.GetProperty("samplesStored").GetInt32());
            Assert.Equal(4 * 22, row.GetProperty("samplesMeasured").GetInt64());
            var mine = samples.Where(s => s.GetProperty("shard").GetInt32() == shard).ToList();
            // Each agent's series arrive: its 20 measured and 2 warm-up iterations, each with its three steps.
            foreach (var series in Series)
            {
                var ofSeries = mine.Where(s => s.GetProperty("series").GetString() == series).ToList();
                Assert.Equal(20, ofSeries.Count(s => !s.GetProperty("isWarmup").GetBoolean()));
                Assert.Equal(2, ofSeries.Count(s => s.GetProperty("isWarmup").GetBoolean()));
            }
            Assert.Equal([2 * shard, 2 * shard + 1], mine.Select(s => s.GetProperty("connection").GetInt32()).Distinct().Order());
        }
        Assert.Contains("id=\"answer-steps\"", page);
        foreach (var series in Series) Assert.Contains($"data-series=\"{series}\"", page);
        Assert.Equal(["signin", "orders", "detail", "iteration"], MarkdownTables.Find(markdown, "Step").Skip(1).Select(r => r[0]));

        // On each: the whole journey (10 iterations, 2 warm-up) on each agent in turn, two rounds; series per agent and step.
        (run, samples, page, markdown) = await RunToEndAsync(scene, new { kind = "http", steps = Journey(target), requests = 10, warmupRequests = 2, concurrency = 2, onEach = new[] { "alpha", "beta" }, rounds = 2 });
        Assert.Equal(2 * 2 * 3 * 12, await ServedAsync(target) - served);
        string[] perAgent = [.. new[] { "alpha", "beta" }.SelectMany(a => Series.Select(s => $"{a}/{s}"))];
        Assert.Equal(perAgent, run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        foreach (var series in perAgent)
        {
            Assert.Equal(2 * 10, CountOf(run, series));
            Assert.Equal(0, ErrorsOf(run, series));
        }
        Assert.Equal(2 * 2 * 3 * 10, run.GetProperty("stats").GetProperty("count").GetInt32());
        Assert.Equal(2 * 2 * 10, run.GetProperty("iterations").GetInt32());
        Assert.Equal(2 * 2 * 4 * 12, samples.Count);
        Assert.Equal(Enumerable.Range(0, 2 * 2 * 4 * 12), samples.Select(s => s.GetProperty("index").GetInt32()).Order());
        foreach (var (name, shard) in new[] { ("alpha", 0), ("beta", 1) })
        {
            var row = AgentRow(run, name);
            Assert.Equal(2, row.GetProperty("turns").GetInt32());
            Assert.Equal(2 * 4 * 12, row.GetProperty("samplesStored").GetInt32());
            Assert.Equal(2 * 4 * 12, row.GetProperty("samplesMeasured").GetInt64());
            Assert.All(samples.Where(s => s.GetProperty("shard").GetInt32() == shard), s => Assert.StartsWith(name + "/", s.GetProperty("series").GetString()));
        }
        Assert.Contains("id=\"answer-steps\"", page);
        // The step table beside the table per configuration (which judges each step's agents, turn by turn): the page and the Markdown alike.
        Assert.Contains("Variant or agent", page);
        foreach (var series in perAgent) Assert.Contains($"data-series=\"{series}\"", page);
        Assert.Contains("id=\"configurations\"", page);
        var steps = MarkdownTables.Find(markdown, "Variant or agent");
        Assert.Equal(perAgent, steps.Skip(1).Select(r => $"{r[0]}/{r[1]}"));
        Assert.All(steps.Skip(1), r => Assert.Equal("20", r[2]));
        foreach (var step in Steps) Assert.Contains($"Each configuration, {step} (ms), against alpha", markdown);
    }
}
