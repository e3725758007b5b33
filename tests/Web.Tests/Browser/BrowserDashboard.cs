using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// The published dashboard on a free loopback port with its own SQLite file (Development, so the reader is the
/// administrator of a local dashboard), as the browser tests use it. <paramref name="Api"/> queues runs the way
/// a script would, for the steps a test is not about.
/// </summary>
sealed record BrowserDashboard(PublishedApp App, string Url, HttpClient Api, TempDirectory Dir) : IAsyncDisposable
{
    /// <param name="demo">Save the demo benchmarks, as a new user's first start does.</param>
    /// <param name="settings">More environment variables for the dashboard (and so its runner child): a test's Azurite as <c>ConnectionStrings__tables</c>, say.</param>
    public static async Task<BrowserDashboard> StartAsync(PublishedOutput published, bool demo = false, Dictionary<string, string?>? settings = null)
    {
        var dir = new TempDirectory();
        var port = PublishedAppTests.FreePort();
        var url = $"http://127.0.0.1:{port}";
        Dictionary<string, string?> environment = new()
        {
            ["ASPNETCORE_URLS"] = url, ["ASPNETCORE_ENVIRONMENT"] = "Development", ["Database__Path"] = dir.File("bench.db"),
            ["Demo__Seed"] = demo ? "true" : "false", ["HOME"] = dir.Path, ["Runner__PollIntervalMs"] = "100", ["Runner__HeartbeatIntervalMs"] = "250",
        };
        foreach (var (name, value) in settings ?? []) environment[name] = value;
        var app = PublishedApp.Start(published.Folder, published.Folder, environment);
        var api = new HttpClient { BaseAddress = new Uri(url), Timeout = TimeSpan.FromSeconds(20) };
        await app.UntilHealthyAsync(api);
        return new BrowserDashboard(app, url, api, dir);
    }

    public async Task<long> RunAsync(object body)
    {
        var created = await Api.PostAsJsonAsync("/api/runs", body);
        created.EnsureSuccessStatusCode();
        return (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
    }

    public Task<JsonElement> UntilEndedAsync(long id) => DashboardFactory.WaitForEndAsync(Api, id);

    public async ValueTask DisposeAsync()
    {
        Api.Dispose();
        await App.DisposeAsync();
        Dir.Dispose();
    }
}
