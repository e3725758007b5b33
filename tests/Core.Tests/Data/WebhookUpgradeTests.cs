using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>A database of the build before webhooks (every migration before theirs) opened by this one.</summary>
public class WebhookUpgradeTests
{
    const string LastBeforeWebhooks = "20261125051245_RunBenchmarkName";

    [Fact]
    public async Task ADatabaseFromBeforeWebhooksOpensWithEveryRunAndBenchmarkIntactAndNoOldRunAnnounced()
    {
        using var dir = new TempDirectory();
        var path = dir.File("before-webhooks.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await using (var scope = services.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            await db.GetService<IMigrator>().MigrateAsync(LastBeforeWebhooks);
            // A run still waiting in the old file: it is judged when it ends, like any other.
            await db.Database.ExecuteSqlRawAsync("UPDATE Runs SET Status = 'Queued', EndedUtcMs = NULL WHERE Id = (SELECT MAX(Id) FROM Runs)");
        }
        var runsBefore = SqliteFiles.Rows(path, "SELECT * FROM Runs ORDER BY Id");
        var benchmarksBefore = SqliteFiles.Rows(path, "SELECT * FROM Benchmarks ORDER BY Id");
        // The columns that build had: later migrations add others, which this test does not judge.
        var columnsOfRuns = string.Join(", ", SqliteFiles.Columns(path, "Runs").Select(c => $"\"{c}\""));
        var columnsOfBenchmarks = string.Join(", ", SqliteFiles.Columns(path, "Benchmarks").Select(c => $"\"{c}\""));

        await services.MigrateDatabaseAsync();

        Assert.Equal(runsBefore, SqliteFiles.Rows(path, $"SELECT {columnsOfRuns} FROM Runs ORDER BY Id"));
        Assert.Equal(benchmarksBefore, SqliteFiles.Rows(path, $"SELECT {columnsOfBenchmarks} FROM Benchmarks ORDER BY Id"));
        await using var after = services.CreateAsyncScope();
        var upgraded = after.ServiceProvider.GetRequiredService<BenchDbContext>();
        Assert.Empty(await upgraded.Database.GetPendingMigrationsAsync());
        Assert.Equal(Ef6Database.Runs, await upgraded.Runs.CountAsync());
        Assert.Equal(Ef6Database.Benchmarks, await upgraded.Benchmarks.CountAsync());
        Assert.All(await upgraded.Benchmarks.ToListAsync(), b => Assert.Empty(b.WebhookUrls));
        Assert.Empty(await upgraded.WebhookDeliveries.ToListAsync());
        var runs = await upgraded.Runs.AsNoTracking().ToListAsync();
        Assert.All(runs.Where(r => r.Status.IsFinal()), r => Assert.Equal(r.EndedUtcMs ?? r.QueuedUtcMs, r.WebhooksCheckedUtcMs));
        Assert.Null(Assert.Single(runs, r => r.Status == RunStatus.Queued).WebhooksCheckedUtcMs);
    }

}
