using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>A database made by the build before runs on each agent (every migration before OnEachAgents) opened by this one.</summary>
public class OnEachUpgradeTests
{
    const string LastBeforeOnEach = "20261127184316_RunRecordedLimits";

    [Fact]
    public async Task EveryRunBenchmarkAndSampleOpensIntactAndAnOnEachRunIsStoredBesideThem()
    {
        using var dir = new TempDirectory();
        var path = dir.File("before-on-each.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await using (var scope = services.CreateAsyncScope())
            await scope.ServiceProvider.GetRequiredService<BenchDbContext>().GetService<IMigrator>().MigrateAsync(LastBeforeOnEach);
        const string everyRun = "SELECT Id, BenchmarkId, Status, Kind, ParametersJson, SummaryJson, Agents, AgentsJson, QueuedUtcMs, EndedUtcMs FROM Runs ORDER BY Id";
        const string everyBenchmark = "SELECT Id, Name, Kind, ParametersJson, CronSchedule, Agents, ThresholdsJson FROM Benchmarks ORDER BY Id";
        const string everySample = "SELECT COUNT(*), SUM(LatencyNs), SUM(OffsetNs) FROM Samples";
        var (runs, benchmarks, samples) = (SqliteFiles.Rows(path, everyRun), SqliteFiles.Rows(path, everyBenchmark), SqliteFiles.Rows(path, everySample));

        await services.MigrateDatabaseAsync();

        Assert.Equal(runs, SqliteFiles.Rows(path, everyRun));
        Assert.Equal(benchmarks, SqliteFiles.Rows(path, everyBenchmark));
        Assert.Equal(samples, SqliteFiles.Rows(path, everySample));
        Assert.Equal(["0"], SqliteFiles.Rows(path, "SELECT COUNT(*) FROM Runs WHERE OnEachJson IS NOT NULL"));
        Assert.Equal(["0"], SqliteFiles.Rows(path, "SELECT COUNT(*) FROM Benchmarks WHERE OnEachJson IS NOT NULL"));

        // A new run on each of two agents, and a benchmark that asks for them, stored beside the old ones.
        var onEach = new OnEach(["cfg0", "cfg1"], 2);
        await using (var scope = services.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var benchmark = await db.Benchmarks.OrderBy(b => b.Id).FirstAsync();
            benchmark.OnEachJson = onEach.ToJson();
            db.Runs.Add(new Run
            {
                BenchmarkId = benchmark.Id, Kind = benchmark.Kind, ParametersJson = benchmark.ParametersJson, Status = RunStatus.Queued,
                QueuedUtcMs = 1_795_800_000_000, Agents = 2, OnEachJson = onEach.ToJson(),
            });
            await db.SaveChangesAsync();
        }
        await using var after = services.CreateAsyncScope();
        var read = after.ServiceProvider.GetRequiredService<BenchDbContext>();
        Assert.Equal(Ef6Database.Runs + 1, await read.Runs.CountAsync());
        Assert.Equal(onEach.Agents, OnEach.Parse((await read.Runs.OrderBy(r => r.Id).LastAsync()).OnEachJson)!.Agents);
        Assert.Equal(2, OnEach.Parse((await read.Benchmarks.OrderBy(b => b.Id).FirstAsync()).OnEachJson)!.Rounds);
    }
}
