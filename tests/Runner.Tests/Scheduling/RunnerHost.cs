using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>
/// A runner host on a real, migrated database of its own (not started unless a test starts it): a SQLite file in
/// a temp directory, or with provider "postgresql" a fresh database on the test assembly's cluster.
/// </summary>
sealed class RunnerHost : IAsyncDisposable
{
    readonly TestDatabase database;
    public IHost Host { get; }
    public IServiceProvider Services => Host.Services;

    /// <summary>Everything the host logged.</summary>
    public LogCapture Logs { get; } = new();

    public string DatabasePath => database.DatabasePath;

    /// <summary>The settings that put another host on this one's database.</summary>
    public Dictionary<string, string?> DatabaseSettings => database.Settings;

    public bool IsPostgreSql => database.ConnectionString is not null;

    RunnerHost(TestDatabase database, Dictionary<string, string?> settings, Action<IServiceCollection>? services)
    {
        this.database = database;
        var builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Runner:PollIntervalMs"] = "50",
            ["Runner:HeartbeatIntervalMs"] = "100",
            ["Targets:AllowLoopback"] = "true", // the tests' targets are on 127.0.0.1
        });
        builder.Configuration.AddInMemoryCollection(database.Settings);
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Logging.AddProvider(Logs);
        builder.Services.AddBenchCore();
        builder.Services.AddBenchRunner();
        services?.Invoke(builder.Services);
        Host = builder.Build();
    }

    /// <param name="services">More registrations: a kind of a test's own.</param>
    /// <param name="provider">"sqlite" or "postgresql" (<see cref="TestDatabase.Providers"/>).</param>
    public static async Task<RunnerHost> CreateAsync(Dictionary<string, string?>? settings = null, Action<IServiceCollection>? services = null, string provider = "sqlite")
    {
        var host = new RunnerHost(await TestDatabase.CreateAsync(provider), settings ?? [], services);
        await host.Services.MigrateDatabaseAsync();
        return host;
    }

    public async Task<T> WithDbAsync<T>(Func<BenchDbContext, Task<T>> action)
    {
        await using var scope = Services.CreateAsyncScope();
        return await action(scope.ServiceProvider.GetRequiredService<BenchDbContext>());
    }

    /// <summary>Queues a run through the real queue (validation included); fails the test if it was refused.</summary>
    public async Task<long> EnqueueAsync(Func<RunQueue, Task<EnqueueResult>> enqueue)
    {
        var result = await WithQueueAsync(enqueue);
        if (!result.IsValid) throw new InvalidOperationException("Not queued: " + string.Join(" ", result.Errors.SelectMany(e => e.Value)));
        return result.Run!.Id;
    }

    public async Task<T> WithQueueAsync<T>(Func<RunQueue, Task<T>> action)
    {
        await using var scope = Services.CreateAsyncScope();
        return await action(scope.ServiceProvider.GetRequiredService<RunQueue>());
    }

    public Task<Run> RunAsync(long runId) => WithDbAsync(db => db.Runs.AsNoTracking().SingleAsync(r => r.Id == runId));

    public Task<List<Sample>> SamplesAsync(long runId) =>
        WithDbAsync(db => RunSamples.ListAsync(db, runId));

    /// <summary>Polls until the run reaches a final status; fails the test after <paramref name="seconds"/>.</summary>
    public async Task<Run> UntilFinalAsync(long runId, int seconds = 90)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        while (true)
        {
            var run = await RunAsync(runId);
            if (run.Status.IsFinal()) return run;
            if (DateTime.UtcNow > deadline)
                throw new TimeoutException($"Run {runId} did not end within {seconds} s ({run.Status}, {run.CompletedRequests:N0} requests). The runner's last words:\n"
                    + string.Join("\n", Logs.Entries.TakeLast(40).Select(e => $"{e.Level} {e.Category}: {e.Message}")));
            await Task.Delay(50);
        }
    }

    public async ValueTask DisposeAsync()
    {
        Host.Dispose();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        await database.DisposeAsync();
    }
}
