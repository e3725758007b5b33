using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Agents;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// Two dashboards on one database each hold a coordinator of runs over agents (AgentRunCoordinator, as hosted in
/// the dashboard): each queued run is coordinated by exactly one of them, both take runs, and neither takes a run
/// the other holds. No agent is linked, so every run ends failed after the agents' barrier, saying why.
/// </summary>
public sealed class SharedCoordinatorTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    [Theory, MemberData(nameof(Providers))]
    public async Task EachRunOverAgentsIsCoordinatedByExactlyOneOfTwoDashboards(string provider)
    {
        const int Runs = 8;
        var settings = new Dictionary<string, string?> { ["Agents:BarrierSeconds"] = "1", ["Runner:MaxParallelRuns"] = "4" };
        // The coordinator as the dashboard adds it (AddAgentRuns).
        await using var first = await CoordinatorHost.CreateAsync(await TestDatabase.CreateAsync(provider), settings);
        await using var second = await CoordinatorHost.CreateAsync(null, new(first.Database.Settings) { ["Agents:BarrierSeconds"] = "1", ["Runner:MaxParallelRuns"] = "4" });
        var ids = await first.WithDbAsync(async db =>
        {
            var runs = Enumerable.Range(0, Runs).Select(i => new Run
            {
                Kind = HttpKind.KindName, Status = RunStatus.Queued, QueuedUtcMs = i, Agents = 2,
                ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 10, Concurrency = 2 }),
            }).ToList();
            db.Runs.AddRange(runs);
            await db.SaveChangesAsync();
            return runs.Select(r => r.Id).ToList();
        });

        await Task.WhenAll(first.Host.StartAsync(), second.Host.StartAsync());
        var mostCoordinatorsAtOnce = 0;
        var deadline = DateTime.UtcNow.AddSeconds(90);
        while (await first.WithDbAsync(db => db.Runs.AnyAsync(r => r.Status == RunStatus.Queued || r.Status == RunStatus.Running)))
        {
            Assert.True(DateTime.UtcNow < deadline, "the runs over agents did not all end within 90 s: " + string.Join(" | ", first.Logs.Messages(LogLevel.Warning)));
            var running = await first.WithDbAsync(db => db.Runs.Where(r => r.Status == RunStatus.Running).Select(r => r.RunnerName).ToListAsync());
            mostCoordinatorsAtOnce = Math.Max(mostCoordinatorsAtOnce, running.Distinct().Count());
            // A coordinator sees one run at a time: two running under one name would be one dashboard coordinating twice.
            Assert.Equal(running.Count, running.Distinct().Count());
            await Task.Delay(20);
        }
        await Task.WhenAll(first.Host.StopAsync(), second.Host.StopAsync());

        var runsAfter = await first.WithDbAsync(db => db.Runs.AsNoTracking().Where(r => ids.Contains(r.Id)).ToListAsync());
        Assert.All(runsAfter, r =>
        {
            Assert.Equal(RunStatus.Failed, r.Status);
            Assert.Contains("agents joined", r.Error);
        });
        // Each run was started once, by one of the two: the processors' own log lines, counted over both dashboards.
        var started = first.Logs.Entries.Concat(second.Logs.Entries).Select(e => e.Message).Where(m => m.EndsWith("(http) started")).ToList();
        Assert.Equal(ids.Select(id => $"Run {id} (http) started").Order(), started.Order());
        var byFirst = first.Logs.Entries.Count(e => e.Message.EndsWith("(http) started"));
        Assert.True(byFirst is > 0 and < Runs, $"the first dashboard coordinated {byFirst} of {Runs} runs: both must take part");
        Assert.Equal(2, mostCoordinatorsAtOnce);
    }

    /// <summary>A dashboard's services that coordinate runs over agents, on a migrated test database, not started until the test starts it.</summary>
    sealed class CoordinatorHost(IHost host, TestDatabase? database, LogCapture logs) : IAsyncDisposable
    {
        public IHost Host => host;
        public LogCapture Logs => logs;

        /// <summary>The database it owns (the first host's); null for a host on another's.</summary>
        public TestDatabase Database => database ?? throw new InvalidOperationException("This host is on another's database.");

        public static async Task<CoordinatorHost> CreateAsync(TestDatabase? database, Dictionary<string, string?> settings)
        {
            var builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
            builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?> { ["Runner:PollIntervalMs"] = "50", ["Runner:HeartbeatIntervalMs"] = "100" });
            if (database is not null) builder.Configuration.AddInMemoryCollection(database.Settings);
            builder.Configuration.AddInMemoryCollection(settings);
            var logs = new LogCapture();
            builder.Logging.AddProvider(logs);
            builder.Services.AddBenchCore();
            builder.Services.AddAgentRuns();
            var built = new CoordinatorHost(builder.Build(), database, logs);
            if (database is not null) await built.Host.Services.MigrateDatabaseAsync();
            return built;
        }

        public async Task<T> WithDbAsync<T>(Func<BenchDbContext, Task<T>> action)
        {
            await using var scope = host.Services.CreateAsyncScope();
            return await action(scope.ServiceProvider.GetRequiredService<BenchDbContext>());
        }

        public async ValueTask DisposeAsync()
        {
            host.Dispose();
            Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
            if (database is not null) await database.DisposeAsync();
        }
    }
}
