using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>The published dashboard on a free loopback port, and agents started from the same output with <c>--runner</c>.</summary>
sealed record Dashboard(PublishedApp App, HttpClient Client, int Port) : IAsyncDisposable
{
    const string ApiKey = "agents-test-admin-key";

    public static async Task<Dashboard> StartAsync(PublishedOutput published, TempDirectory dir, Dictionary<string, string?>? extra = null)
    {
        var port = PublishedAppTests.FreePort();
        var environment = new Dictionary<string, string?>
        {
            ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}", ["ASPNETCORE_ENVIRONMENT"] = "Production", ["Database__Path"] = dir.File("bench.db"),
            ["Demo__Seed"] = "false", ["HOME"] = dir.Path, ["Runner__Process"] = "none", ["Targets__AllowLoopback"] = "true",
            ["Agents__Keys__alpha"] = "alpha-key", ["Agents__Keys__beta"] = "beta-key", ["Agents__AllowInsecure"] = "true",
            ["Auth__ApiKey"] = ApiKey,
        };
        foreach (var (key, value) in extra ?? []) environment[key] = value;
        var app = PublishedApp.Start(published.Folder, published.Folder, environment);
        var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(10) };
        client.DefaultRequestHeaders.Add("X-Api-Key", ApiKey); // outside Development only an administrator starts runs
        await app.UntilHealthyAsync(client);
        return new Dashboard(app, client, port);
    }

    /// <summary>
    /// An agent process linking to this dashboard; loopback targets are allowed to it, as to the dashboard.
    /// <paramref name="extra"/>: more of its environment (a configuration's platform settings).
    /// </summary>
    public PublishedApp StartAgent(PublishedOutput published, TempDirectory dir, string name, string key, Dictionary<string, string?>? extra = null)
    {
        var environment = new Dictionary<string, string?>
        {
            ["Runner__Mode"] = "agent", ["Runner__Coordinator"] = $"http://127.0.0.1:{Port}", ["Runner__AgentName"] = name, ["Runner__AgentKey"] = key,
            ["HOME"] = dir.Path, ["DOTNET_ENVIRONMENT"] = "Production", ["Targets__AllowLoopback"] = "true",
        };
        foreach (var (variable, value) in extra ?? []) environment[variable] = value;
        return PublishedApp.Start(published.Folder, published.Folder, environment, "--runner");
    }

    public async Task<JsonElement?> AgentAsync(string name, bool linked) =>
        (await Client.GetFromJsonAsync<JsonElement>("/api/agents")).EnumerateArray()
            .Where(a => a.GetProperty("name").GetString() == name && a.GetProperty("linked").GetBoolean() == linked)
            .Select(a => (JsonElement?)a).FirstOrDefault();

    /// <summary>Polls until the agent is in that state; returns it and how long that took.</summary>
    public async Task<(JsonElement Agent, TimeSpan After)> UntilAgentAsync(string name, bool linked, Func<JsonElement, bool>? also = null, double seconds = 30)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < TimeSpan.FromSeconds(seconds))
        {
            if (await AgentAsync(name, linked) is { } agent && (also is null || also(agent))) return (agent, clock.Elapsed);
            await Task.Delay(20);
        }
        throw new TimeoutException($"Agent {name} not {(linked ? "linked" : "lost")} within {seconds} s: {await Client.GetStringAsync("/api/agents")}");
    }

    /// <summary>Queues a run (which must be accepted); its id.</summary>
    public async Task<long> QueueAsync(object request)
    {
        var response = await Client.PostAsJsonAsync("/api/runs", request);
        Assert.True(response.StatusCode == System.Net.HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
        return (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
    }

    public async Task<JsonElement> RunAsync(long id, bool stats = true) =>
        await Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}{(stats ? "" : "?includeStats=false")}");

    /// <summary>Polls the run (cheaply) until <paramref name="done"/>; then the run with its statistics, and how long that took.</summary>
    public async Task<(JsonElement Run, TimeSpan After)> UntilRunAsync(long id, Func<JsonElement, bool> done, double seconds)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < TimeSpan.FromSeconds(seconds))
        {
            if (done(await RunAsync(id, stats: false))) return (await RunAsync(id), clock.Elapsed);
            await Task.Delay(50);
        }
        throw new TimeoutException($"Run {id} not there within {seconds} s: {await Client.GetStringAsync($"/api/runs/{id}?includeStats=false")}");
    }

    public static bool Final(JsonElement run) => run.GetProperty("status").GetString() is not ("queued" or "running");

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await App.DisposeAsync();
    }
}
