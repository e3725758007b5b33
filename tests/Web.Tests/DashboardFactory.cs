using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Tests;

/// <summary>
/// The real dashboard with its embedded runner, on a fresh SQLite file in a temp directory, or on a database of its
/// own on the test assembly's PostgreSQL cluster (<see cref="OnAsync"/>).
/// </summary>
public sealed class DashboardFactory : WebApplicationFactory<Program>
{
    readonly TempDirectory dir = new();
    readonly Dictionary<string, string?> settings;

    /// <param name="settings">Configuration; the key "environment" sets the hosting environment (Development otherwise).</param>
    public DashboardFactory(Dictionary<string, string?>? settings = null) => this.settings = settings ?? [];

    TestDatabase? database;

    /// <summary>A dashboard on <paramref name="provider"/> ("sqlite" or "postgresql": <see cref="TestDatabase.Providers"/>).</summary>
    public static async Task<DashboardFactory> OnAsync(string provider, Dictionary<string, string?>? settings = null)
    {
        var database = await TestDatabase.CreateAsync(provider);
        var all = database.ConnectionString is null ? settings ?? [] : new Dictionary<string, string?>(database.Settings).Concat(settings ?? []).ToDictionary();
        return new DashboardFactory(all) { database = database };
    }

    public string DatabasePath => dir.File("bench.db");

    IWebHostEnvironment? hosting;

    /// <summary>Everything the dashboard logged.</summary>
    public LogCapture Logs { get; } = new();

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.ConfigureLogging(logging => logging.AddProvider(Logs));
        builder.ConfigureServices((context, _) => hosting = context.HostingEnvironment);
        builder.UseSetting("Database:Path", DatabasePath);
        builder.UseSetting("Demo:Seed", "false");
        builder.UseSetting("Runner:Process", "InProcess"); // the tests watch the runner in this process (its logs, its services)
        builder.UseSetting("Runner:PollIntervalMs", "50");
        builder.UseSetting("Runner:HeartbeatIntervalMs", "100");
        builder.UseSetting("RunLimits:MaxRequests", "5000");
        foreach (var (key, value) in settings) builder.UseSetting(key, value);
        if (settings.TryGetValue("environment", out var environment) && environment is not null) builder.UseEnvironment(environment);
    }

    /// <summary>Queues a run through the API and returns its id.</summary>
    public static async Task<long> CreateRunAsync(HttpClient client, object body)
    {
        var response = await client.PostAsJsonAsync("/api/runs", body);
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
    }

    /// <summary>Polls the API until the run has completed at least <paramref name="requests"/> requests (it is running).</summary>
    public static async Task WaitForProgressAsync(HttpClient client, long id, int requests)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while ((await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}?includeStats=false")).GetProperty("completedRequests").GetInt32() < requests)
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"Run {id} has not completed {requests} requests after 60 s.");
            await Task.Delay(50);
        }
    }

    /// <summary>Polls the API until the run leaves queued/running.</summary>
    public static async Task<JsonElement> WaitForEndAsync(HttpClient client, long id)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            var run = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}?includeStats=false");
            if (run.GetProperty("status").GetString() is not ("queued" or "running")) return await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"Run {id} still {run.GetProperty("status")} after 60 s.");
            await Task.Delay(50);
        }
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        // The host leaves its environment's file providers open, and the web root's holds an inotify watcher (made
        // for the pages' versioned script links): hundreds of dashboards in one test process would reach the user's
        // limit of 128 inotify instances, and the next process that wants one (a published dashboard) fails to start.
        if (hosting is not null) DisposeAll(hosting.WebRootFileProvider, hosting.ContentRootFileProvider);
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        if (database is not null) await database.DisposeAsync();
        dir.Dispose();
    }

    static void DisposeAll(params IFileProvider?[] providers)
    {
        foreach (var provider in providers)
        {
            if (provider is CompositeFileProvider composite) DisposeAll([.. composite.FileProviders]);
            (provider as IDisposable)?.Dispose();
        }
    }
}
