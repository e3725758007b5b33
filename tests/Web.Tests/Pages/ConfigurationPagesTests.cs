using System.Net;
using System.Net.Http.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A run on each of several configurations: the same table per configuration on its page, its report, its Markdown and its text.</summary>
public class ConfigurationPagesTests
{
    const long Ms = 1_000_000;

    /// <summary>
    /// A finished run on cfg0, cfg1 and cfg2 stored as the coordinator stores one: cfg0 and cfg1 took turns, three rounds,
    /// each turn the whole workload of 100 requests of 1..100 ms (cfg1 at half cfg0's, so its p50 is 25 ms against 50);
    /// cfg2's agent never joined.
    /// </summary>
    static long StoreRun(DashboardFactory app)
    {
        using var scope = app.Services.CreateScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var onEach = new OnEach(["cfg0", "cfg1", "cfg2"]);
        EnvironmentSnapshot Recorded(string cache) => new()
        {
            MachineName = "host", OsDescription = "Linux", DotnetVersion = ".NET 10", ProcessorCount = 2, ProcessId = 4000 + int.Parse(cache),
            PlatformVariables = new(StringComparer.Ordinal) { ["WEBSITE_DYNAMIC_CACHE"] = cache, ["WEBSITE_SKU"] = "PremiumV3" },
        };
        var run = new Run
        {
            Kind = HttpKind.KindName, Status = RunStatus.Completed, QueuedUtcMs = 1, StartedUtcMs = 1, EndedUtcMs = 2,
            ParametersJson = Json.Serialize(new { url = "{{self}}/target/delay?ms=2", requests = 100 }),
            Agents = onEach.Agents.Count, OnEachJson = onEach.ToJson(),
            AgentsJson = Json.Serialize(new[]
            {
                new AgentShardRow(0, "cfg0", "host", 1, ShardStatus.Done, null, null, null, 100, Recorded("0")),
                new AgentShardRow(1, "cfg1", "host", 1, ShardStatus.Done, null, null, null, 100, Recorded("1")),
                new AgentShardRow(2, "cfg2", null, 0, ShardStatus.Failed, "did not join within 15 s", null, null, 0, null),
            }),
        };
        db.Runs.Add(run);
        db.SaveChanges();
        long offset = 0;
        var index = 0;
        var random = new Random(3);
        for (var round = 0; round < 3; round++)
            for (var turn = 0; turn < 2; turn++)
            {
                var shard = (round + turn) % 2;
                var order = Enumerable.Range(1, 100).ToArray();
                random.Shuffle(order);
                foreach (var ms in order)
                {
                    var latency = ms * Ms * (shard == 0 ? 2 : 1) / 2;
                    db.Samples.Add(new Sample { RunId = run.Id, Index = index++, OffsetNs = offset, LatencyNs = latency, StatusCode = 200, Series = onEach.Agents[shard], Shard = shard });
                    offset += latency;
                }
            }
        db.SaveChanges();
        return run.Id;
    }

    static readonly string[] Cfg1 = ["cfg1", "WEBSITE_DYNAMIC_CACHE=1", "300", "0", "25.250 (50.0 %)", "25.000 (50.0 %, 2.00× faster)", "45.000 (50.0 %, 2.00× faster)", "49.500 (50.0 %, 2.00× faster)", "done"];

    [Fact]
    public async Task ThePageTheReportTheMarkdownAndTheTextShowARowPerConfigurationWithTheSettingsItRecorded()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None" });
        var client = app.CreateClient();
        var id = StoreRun(app);

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        var rows = Rows(html);
        Assert.Equal(["cfg0", "cfg1", "cfg2"], rows.Select(r => r[0]));
        Assert.Equal(["cfg0", "WEBSITE_DYNAMIC_CACHE=0", "300", "0", "50.500 (baseline)", "50.000 (baseline)", "90.000 (baseline)", "99.000 (baseline)", "done"], rows[0]);
        Assert.Equal(Cfg1, rows[1]);
        Assert.Equal(["cfg2", "–", "–", "–", "–", "–", "–", "–", "failed: did not join within 15 s"], rows[2]);
        Assert.DoesNotContain("WEBSITE_SKU", rows[0][1]); // the same on every configuration: not what sets them apart
        Assert.Contains("each ran the whole workload in its turns", html); // the agents' rows are not shards of one load
        Assert.DoesNotContain("over the union of their samples", html);
        // An agent's samples lie in its turns, the others' between them: no rate over that span, its turns instead.
        var agentsHeader = Regex.Match(html, "<table id=\"agent-rows\">\\s*<thead>(.*?)</thead>", RegexOptions.Singleline).Groups[1].Value;
        Assert.Contains("<th>Turns</th>", agentsHeader);
        Assert.DoesNotContain("Requests/s", agentsHeader);

        var report = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}/report"));
        Assert.Equal(rows, Rows(report));

        var markdown = await client.GetStringAsync($"/api/runs/{id}?format=markdown");
        Assert.StartsWith("#### Each configuration (ms), against cfg0", markdown[markdown.IndexOf("####", StringComparison.Ordinal)..]);
        var table = MarkdownTables.Find(markdown, "Configuration"); // read as rendered Markdown, not as text that looks right
        Assert.Equal(rows, table.Skip(1).Select(r => r.ToArray()));

        var text = await client.GetStringAsync($"/api/runs/{id}?format=text");
        var answer = text[text.IndexOf("ANSWER", StringComparison.Ordinal)..];
        answer = answer[..answer.IndexOf("\n\n", StringComparison.Ordinal)]; // the answer's table, before what follows it
        var line = answer.Split('\n').Single(l => l.StartsWith("cfg1 ", StringComparison.Ordinal));
        Assert.Equal(Cfg1, Regex.Split(line.Trim(), "\\s{2,}"));
        Assert.Contains(answer.Split('\n'), l => l.StartsWith("cfg2 ", StringComparison.Ordinal) && l.TrimEnd().EndsWith("failed: did not join within 15 s", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ARunOnOneAgentOrSpreadOverAgentsHasNoConfigurationTable()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None" });
        var client = app.CreateClient();
        long id;
        using (var scope = app.Services.CreateScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var run = new Run { Kind = HttpKind.KindName, Status = RunStatus.Completed, QueuedUtcMs = 1, StartedUtcMs = 1, EndedUtcMs = 2, ParametersJson = "{\"url\":\"http://127.0.0.1:1/\"}", Agents = 2 };
            db.Runs.Add(run);
            db.SaveChanges();
            db.Samples.Add(new Sample { RunId = run.Id, Index = 0, LatencyNs = Ms, StatusCode = 200, Shard = 0 });
            db.SaveChanges();
            id = run.Id;
        }

        Assert.DoesNotContain("id=\"configurations\"", await client.GetStringAsync($"/runs/{id}"));
        Assert.DoesNotContain("Each configuration", await client.GetStringAsync($"/api/runs/{id}?format=markdown"));
    }

    /// <summary>
    /// Every kind runs on each agent: its page, report, Markdown and text take a finished run whose series are the
    /// agents' ("cfg0/write"), a table per phase of the kind, whatever the kind's own answer makes of those series.
    /// </summary>
    [Theory]
    [InlineData("http", """{"url":"http://127.0.0.1:1/","variants":[{"name":"A"},{"name":"B","url":"http://127.0.0.1:2/"}]}""")]
    [InlineData("cache", """{"phases":["write","read-same"]}""")]
    [InlineData("fileSystem", """{"directories":["temp"],"fileCount":20}""")]
    [InlineData("table", "{}")]
    public async Task EveryKindsRunOnEachAgentHasATablePerPhaseOnEveryView(string kindName, string parametersJson)
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None" });
        var client = app.CreateClient();
        long id;
        IReadOnlyList<string> phases;
        using (var scope = app.Services.CreateScope())
        {
            var kind = scope.ServiceProvider.GetRequiredService<Core.Benchmarks.BenchmarkKinds>().Find(kindName)!;
            var parameters = kind.Deserialize(parametersJson);
            phases = kind.PlannedSeries(parameters);
            Assert.NotEmpty(phases);
            var onEach = new OnEach(["cfg0", "cfg1"], Rounds: 2);
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var run = new Run
            {
                Kind = kindName, Status = RunStatus.Completed, QueuedUtcMs = 1, StartedUtcMs = 1, EndedUtcMs = 2, ParametersJson = System.Text.Json.JsonSerializer.Serialize(parameters, parameters.GetType(), Json.Options),
                Agents = 2, OnEachJson = onEach.ToJson(),
                AgentsJson = Json.Serialize(new[] { new AgentShardRow(0, "cfg0", "host", 1, ShardStatus.Done, null, null, null, 0, null), new AgentShardRow(1, "cfg1", "host", 1, ShardStatus.Done, null, null, null, 0, null) }),
            };
            db.Runs.Add(run);
            db.SaveChanges();
            // Two rounds, each agent's turn the whole workload: every phase in order, 40 operations each.
            long offset = 0;
            var index = 0;
            foreach (var (round, agents) in new[] { (0, new[] { 0, 1 }), (1, new[] { 1, 0 }) })
                foreach (var agent in agents)
                    foreach (var phase in phases)
                        for (var i = 0; i < 40; i++)
                        {
                            var latency = (i % 10 + 1) * Ms * (agent + 1);
                            db.Samples.Add(new Sample { RunId = run.Id, Index = index++, OffsetNs = offset, LatencyNs = latency, StatusCode = 200, Series = OnEach.SeriesOf(onEach.Agents[agent], phase), Shard = agent, Bytes = 10 });
                            offset += latency;
                        }
            db.SaveChanges();
            id = run.Id;
        }

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        var titles = Regex.Matches(html, "<section id=\"configurations\">(.*?)</section>", RegexOptions.Singleline).Single().Groups[1].Value;
        Assert.Equal(phases.Select(p => $"Each configuration, {p} (ms), against cfg0"), Regex.Matches(titles, "<h2>(.*?)</h2>").Select(m => m.Groups[1].Value));
        Assert.All(Rows(html).Where(r => r[0] == "cfg1"), r => Assert.Equal("11.000 (200.0 %)", r[4])); // the mean, twice the baseline's 5.5 ms in every phase
        Assert.Equal(System.Net.HttpStatusCode.OK, (await client.GetAsync($"/runs/{id}/report")).StatusCode);
        var markdown = await client.GetStringAsync($"/api/runs/{id}?format=markdown");
        Assert.Equal(phases.Count, MarkdownTables.Of(markdown).Count(t => t[0][0] == "Configuration"));
        Assert.Contains($"Each configuration, {phases[^1]} (ms), against cfg0", await client.GetStringAsync($"/api/runs/{id}?format=text"));
        // The configuration tables are the whole answer: the kind's own would set one agent's series against another's
        // by a verdict of its own ("cfg1/temp 1.07× slower" beside a configuration table saying no clear difference).
        var json = await client.GetFromJsonAsync<System.Text.Json.JsonElement>($"/api/runs/{id}");
        Assert.All(json.GetProperty("answer").EnumerateArray(), t => Assert.StartsWith("Each configuration", t.GetProperty("title").GetString()));
        Assert.Equal(phases.Count, json.GetProperty("answer").GetArrayLength());
    }

    /// <summary>The configuration table's rows, each cell's text.</summary>
    static List<string[]> Rows(string html)
    {
        var section = Regex.Match(html, "<section id=\"configurations\">(.*?)</section>", RegexOptions.Singleline).Groups[1].Value;
        return Regex.Matches(section, "<tr data-configuration=\"[^\"]*\">(.*?)</tr>", RegexOptions.Singleline)
            .Select(m => Regex.Matches(m.Groups[1].Value, "<t[hd]>(.*?)</t[hd]>", RegexOptions.Singleline).Select(c => c.Groups[1].Value.Trim()).ToArray()).ToList();
    }
}
