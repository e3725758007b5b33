using BenchDashboard.Core;
using BenchDashboard.Core.Calibration;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>A results file written by the EF Core 6 build (<see cref="Ef6Database"/>) opened by this build.</summary>
public class UpgradeFromEf6Tests
{
    [Fact]
    public async Task EveryRowAndFieldOfAnEf6DatabaseSurvivesTheUpgrade()
    {
        using var dir = new TempDirectory();
        var path = dir.File("ef6.db");
        SqliteFiles.LoadEf6(path);
        var before = Snapshot(path);
        Assert.Equal(Ef6Database.Samples, before["Samples"].Rows.Count);

        await using var services = DatabaseServices.For(path);
        await services.MigrateDatabaseAsync();

        var after = Snapshot(path, onlyColumnsOf: before);
        foreach (var (name, table) in before)
            Assert.True(table.Rows.SequenceEqual(after[name].Rows), $"Table {name} changed in the upgrade.");
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        Assert.Empty(await db.Database.GetPendingMigrationsAsync());
        Assert.Equal(Ef6Database.Runs, await db.Runs.CountAsync());
        Assert.Equal(Ef6Database.Samples, await db.Samples.CountAsync());
        Assert.Equal(Ef6Database.Benchmarks, await db.Benchmarks.CountAsync());
        Assert.Equal(Ef6Database.Digests, await db.Digests.CountAsync());
        Assert.Equal(Ef6Database.Latencies, await db.Latencies.CountAsync());
        Assert.Equal(Ef6Database.AaChecks, await db.AaChecks.CountAsync());
        Assert.Equal(Ef6Database.Summaries, await db.Runs.CountAsync(r => r.SummaryJson != null));
        Assert.Equal("30 2 * * *", (await db.Benchmarks.SingleAsync(b => b.Id == 2)).CronSchedule);
        Assert.All(await db.Benchmarks.ToListAsync(), b => Assert.Equal("UTC", b.TimeZone)); // as NCrontab read every schedule
    }

    [Fact]
    public async Task UpgradedRunsReadTheirStoredDigestsAndTheAaCheckItsRuns()
    {
        using var dir = new TempDirectory();
        var path = dir.File("ef6.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await services.MigrateDatabaseAsync();
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var queries = scope.ServiceProvider.GetRequiredService<RunQueries>();
        var digestsBefore = await db.Digests.Select(d => new { d.RunId, d.Basis, d.Json }).ToListAsync();

        var read = new List<long>();
        foreach (var run in await db.Runs.AsNoTracking().Where(r => r.Status == RunStatus.Completed).ToListAsync())
        {
            read.Add(run.Id);
            var report = await queries.ReportAsync(run.Id, default);
            var stored = await db.Samples.CountAsync(s => s.RunId == run.Id && !s.IsWarmup);
            Assert.Equal(stored, report!.Statistics.Count);
            Assert.Equal(run.CompletedRequests, await db.Samples.CountAsync(s => s.RunId == run.Id));
        }
        // Digests of an older version are rebuilt from the samples when read (the figures above are the samples'):
        // every run keeps a digest of each basis it had, those read now of this version.
        var digestsAfter = await db.Digests.Select(d => new { d.RunId, d.Basis, d.Version }).ToListAsync();
        Assert.Equal(digestsBefore.Select(d => (d.RunId, d.Basis)).Order(), digestsAfter.Select(d => (d.RunId, d.Basis)).Order());
        Assert.All(digestsAfter.Where(d => read.Contains(d.RunId)), d => Assert.Equal(BenchDashboard.Core.Statistics.RunDigest.CurrentVersion, d.Version));

        var check = await scope.ServiceProvider.GetRequiredService<AaChecks>().ReportAsync(1, default);
        Assert.True(check!.Finished);
        Assert.Equal(6, check.Runs);
        Assert.Equal(2, check.Interleaved!.Judged);
    }

    /// <summary>Every row of every table but the migrations history, rendered column by column, in rowid order.</summary>
    static Dictionary<string, Table> Snapshot(string path, Dictionary<string, Table>? onlyColumnsOf = null)
    {
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False;Mode=ReadOnly");
        connection.Open();
        var tables = new List<string>();
        using (var list = connection.CreateCommand())
        {
            list.CommandText = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__EF%' ORDER BY name";
            using var reader = list.ExecuteReader();
            while (reader.Read()) tables.Add(reader.GetString(0));
        }
        var snapshot = new Dictionary<string, Table>();
        foreach (var table in tables.Where(t => onlyColumnsOf is null || onlyColumnsOf.ContainsKey(t)))
        {
            using var select = connection.CreateCommand();
            select.CommandText = $"SELECT {onlyColumnsOf?[table].Columns ?? "*"} FROM \"{table}\" ORDER BY rowid";
            using var reader = select.ExecuteReader();
            var columns = string.Join(", ", Enumerable.Range(0, reader.FieldCount).Select(i => $"\"{reader.GetName(i)}\""));
            var rows = new List<string>();
            while (reader.Read())
                rows.Add(string.Join(" | ", Enumerable.Range(0, reader.FieldCount).Select(i => reader.GetName(i) + "=" + Render(reader.GetValue(i)))));
            snapshot[table] = new Table(columns, rows);
        }
        return snapshot;
    }

    sealed record Table(string Columns, List<string> Rows);

    static string Render(object value) => value switch
    {
        DBNull => "NULL",
        byte[] bytes => "x'" + Convert.ToHexString(bytes) + "'",
        _ => Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture)!,
    };
}
