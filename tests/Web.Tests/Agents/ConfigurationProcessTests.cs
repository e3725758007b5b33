using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// Three App Service configurations on one machine (<see cref="LocalConfigurations"/>): configuration processes of the
/// published site, each serving its own /target/* and linked to the dashboard as the agent of its name.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class ConfigurationProcessTests(PublishedOutput published, ITestOutputHelper output)
{
    [Fact]
    public async Task ThreeConfigurationsLinkWithTheirOwnEnvironmentAndEachServesItsOwnTargets()
    {
        using var dir = new TempDirectory();
        var keys = LocalConfigurations.Keys(3);
        await using var dashboard = await Dashboard.StartAsync(published, dir, LocalConfigurations.DashboardSettings(keys));
        await using var configurations = LocalConfigurations.Start(published, dir, dashboard, keys);

        var listed = await configurations.UntilLinkedAsync(dashboard);

        foreach (var (c, agent) in configurations.All.Zip(listed))
        {
            var environment = agent.GetProperty("environment");
            var variables = environment.GetProperty("platformVariables");
            Assert.Equal((c.Index % 3).ToString(), variables.GetProperty("WEBSITE_DYNAMIC_CACHE").GetString());
            Assert.Equal("Never", variables.GetProperty("WEBSITE_LOCAL_CACHE_OPTION").GetString());
            Assert.Equal(c.Name, variables.GetProperty("BENCHDASHBOARD_SLOT").GetString());
            Assert.Equal(c.App.Pid, environment.GetProperty("processId").GetInt32()); // the configuration's own process is the agent

            using var site = new HttpClient { BaseAddress = c.Site, Timeout = TimeSpan.FromSeconds(10) };
            var clock = Stopwatch.StartNew();
            var delay = await site.GetAsync("/target/delay?ms=20&size=10");
            Assert.Equal(HttpStatusCode.OK, delay.StatusCode);
            Assert.Equal(10, (await delay.Content.ReadAsByteArrayAsync()).Length);
            Assert.True(clock.ElapsedMilliseconds >= 20, $"{clock.ElapsedMilliseconds} ms for a 20 ms target");
            Assert.Equal(HttpStatusCode.OK, (await site.GetAsync("/target/static.html")).StatusCode);
            // Its own site folder, as each slot has: the small files come from its content root.
            var files = await site.GetStringAsync("/target/files?count=4");
            Assert.StartsWith("read 4 files, ", files);
            Assert.EndsWith($"from {Path.Combine(c.Content, "wwwroot", "target", "files")}\n", files);

            var health = await site.GetFromJsonAsync<JsonElement>("/healthz");
            Assert.Equal("configuration", health.GetProperty("role").GetString());
            Assert.True(health.GetProperty("linked").GetBoolean());
            Assert.Contains($"This is configuration {c.Name}", await site.GetStringAsync("/"));
            // No dashboard in it: no pages, no API, not the dashboard's scripts, and no results database written anywhere of its own.
            foreach (var path in new[] { "/runs", "/api/runs", "/agents", "/css/site.css", "/api-docs" })
                Assert.Equal(HttpStatusCode.NotFound, (await site.GetAsync(path)).StatusCode);
            Assert.Empty(Directory.EnumerateFiles(Path.GetDirectoryName(c.Home)!, "*.db", SearchOption.AllDirectories));
        }
        Assert.Equal(3, listed.Select(a => a.GetProperty("environment").GetProperty("processId").GetInt32()).Distinct().Count());

        // The agents page shows each configuration's settings beside its name.
        var page = WebUtility.HtmlDecode(await dashboard.Client.GetStringAsync("/agents"));
        foreach (var c in configurations.All) Assert.Contains($"BENCHDASHBOARD_SLOT={c.Name}", page);
        Assert.Contains("WEBSITE_DYNAMIC_CACHE=2", page);
    }

    [Fact]
    public async Task ASelfUrlGoesToEachAgentsOwnSite()
    {
        using var dir = new TempDirectory();
        var keys = LocalConfigurations.Keys(3);
        await using var dashboard = await Dashboard.StartAsync(published, dir, LocalConfigurations.DashboardSettings(keys));
        await using var configurations = LocalConfigurations.Start(published, dir, dashboard, keys);
        await configurations.UntilLinkedAsync(dashboard);

        // /target/cacheable is slow (coldMs) only for the first request a process serves: one load spread over the three
        // agents, at {{self}}, meets three cold first requests, one per shard, only if each agent went to its own site.
        var response = await dashboard.Client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "{{self}}/target/cacheable?coldMs=300", concurrency = 3, requests = 30, agents = 3 });
        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var id = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        var run = await DashboardFactory.WaitForEndAsync(dashboard.Client, id);
        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());

        var samples = (await dashboard.Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();
        Assert.Equal(30, samples.Count);
        Assert.All(samples, s => Assert.Equal(200, s.GetProperty("statusCode").GetInt32()));
        foreach (var shard in samples.GroupBy(s => s.GetProperty("shard").GetInt32()))
        {
            var latencies = shard.OrderBy(s => s.GetProperty("index").GetInt32()).Select(s => s.GetProperty("latencyMs").GetDouble()).ToList();
            output.WriteLine($"shard {shard.Key}: first {latencies[0]:0.0} ms, then at most {latencies.Skip(1).Max():0.0} ms");
            Assert.Equal(10, latencies.Count);
            Assert.True(latencies[0] >= 300, $"shard {shard.Key}'s first request took {latencies[0]} ms: not its own site's cold one");
            Assert.All(latencies.Skip(1), ms => Assert.True(ms < 300, $"shard {shard.Key}: a second cold request ({ms} ms)"));
        }
        Assert.Equal(3, samples.Select(s => s.GetProperty("shard").GetInt32()).Distinct().Count());

        // Each shard's agent says which process measured: the three configurations'.
        var pids = run.GetProperty("agents").EnumerateArray().Select(a => a.GetProperty("environment").GetProperty("processId").GetInt32()).Order();
        Assert.Equal(configurations.All.Select(c => c.App.Pid).Order(), pids);
    }

    [Fact]
    public async Task AConfigurationStartedAsAppServiceStartsItFindsItsOwnSiteFromPort()
    {
        // App Service gives the site PORT and no ASPNETCORE_URLS; the site listens on every interface there, and
        // {{self}} must still reach it over loopback.
        using var dir = new TempDirectory();
        var keys = LocalConfigurations.Keys(1);
        await using var dashboard = await Dashboard.StartAsync(published, dir, LocalConfigurations.DashboardSettings(keys));
        var port = PublishedAppTests.FreePort();
        var environment = LocalConfigurations.Environment(0, port, $"http://127.0.0.1:{dashboard.Port}", keys["cfg0"], dir.Path, dir.Path);
        (environment["ASPNETCORE_URLS"], environment["PORT"]) = (null, port.ToString());
        await using var configuration = PublishedApp.Start(published.Folder, published.Folder, environment);
        await dashboard.UntilAgentAsync("cfg0", linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number, seconds: 60);

        var response = await dashboard.Client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "{{self}}/target/delay?ms=1", requests = 20, agents = 1 });
        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var run = await DashboardFactory.WaitForEndAsync(dashboard.Client, (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());

        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());
        Assert.Equal(20, run.GetProperty("completedRequests").GetInt32());
        var notes = run.GetProperty("notes").GetProperty("notes").EnumerateArray().Select(n => n.GetString()).ToList();
        Assert.Contains(notes, n => n!.Contains($"{{{{self}}}} is this agent's own site, http://127.0.0.1:{port}"));
    }

    [Fact]
    public async Task AnAgentWithoutASiteOfItsOwnRefusesASelfRunSayingWhy()
    {
        using var dir = new TempDirectory();
        await using var dashboard = await Dashboard.StartAsync(published, dir);
        await using var alpha = dashboard.StartAgent(published, dir, "alpha", "alpha-key"); // --runner: an agent without a site
        await dashboard.UntilAgentAsync("alpha", linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number, seconds: 60);

        var response = await dashboard.Client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "{{self}}/target/delay?ms=1", requests = 10, agents = 1 });
        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        var run = await DashboardFactory.WaitForEndAsync(dashboard.Client, (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());

        output.WriteLine(run.GetProperty("error").GetString());
        Assert.Equal("failed", run.GetProperty("status").GetString());
        Assert.Contains("serves no site of its own", run.GetProperty("error").GetString());
        Assert.Equal(0, run.GetProperty("completedRequests").GetInt32());
    }
}
