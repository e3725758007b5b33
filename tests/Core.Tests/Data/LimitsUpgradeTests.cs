using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>A database made by the build before runs kept their limits (every migration before its own) opened by this one.</summary>
public class LimitsUpgradeTests
{
    const string LastBeforeRecordedLimits = "20261127144755_RunWaitingFor";

    [Fact]
    public async Task RunsFromBeforeLimitsWereRecordedOpenIntactAndAreJudgedByTodaysLimitsSayingSo()
    {
        using var dir = new TempDirectory();
        var path = dir.File("before-recorded-limits.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await using (var scope = services.CreateAsyncScope())
            await scope.ServiceProvider.GetRequiredService<BenchDbContext>().GetService<IMigrator>().MigrateAsync(LastBeforeRecordedLimits);
        // Benchmark 1 with a median limit of 1 ms, and two runs of about 5 ms it ended, as the old build left them.
        Execute(path, $"UPDATE Benchmarks SET ThresholdsJson = '{Json.Serialize(new Thresholds { MaxMedianMs = 1 })}' WHERE Id = 1");
        var added = new[] { AddRun(path, 0), AddRun(path, 1) };
        const string everyRun = "SELECT Id, BenchmarkId, Status, ParametersJson, SummaryJson, HistoryJson, HistoryVersion, QueuedUtcMs, EndedUtcMs, WebhooksCheckedUtcMs FROM Runs ORDER BY Id";
        var before = SqliteFiles.Rows(path, everyRun);

        await services.MigrateDatabaseAsync();

        Assert.Equal(before, SqliteFiles.Rows(path, everyRun));
        Assert.Equal(["0"], SqliteFiles.Rows(path, "SELECT COUNT(*) FROM Runs WHERE LimitsJson IS NOT NULL"));
        await using var after = services.CreateAsyncScope();
        var db = after.ServiceProvider.GetRequiredService<BenchDbContext>();
        Assert.Equal(Ef6Database.Runs + 2, await db.Runs.CountAsync());
        Assert.Equal(Ef6Database.Samples + 2 * 40, await db.Samples.CountAsync());
        var history = after.ServiceProvider.GetRequiredService<RunHistory>();
        foreach (var id in added)
        {
            var run = await db.Runs.AsNoTracking().Include(r => r.Benchmark).SingleAsync(r => r.Id == id);
            var point = await history.PointAsync(run, default);
            Assert.Equal(40, point!.Summary.Count);
            Assert.False(point.Limits!.Recorded);
            Assert.False(point.Thresholds!.Passed); // by today's limits: nothing better is known of then
            Assert.Equal("limits not recorded when this run ended; judged by today's", point.Limits.Remark);
        }
    }

    static void Execute(string path, string sql)
    {
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False");
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    /// <summary>A completed run of benchmark 1 with 40 samples around 5 ms, in the old schema.</summary>
    static long AddRun(string path, int n)
    {
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False");
        connection.Open();
        using var transaction = connection.BeginTransaction();
        using var insert = connection.CreateCommand();
        var ended = 1_795_700_000_000 + n * 60_000L;
        insert.CommandText = $"""
            INSERT INTO Runs (BenchmarkId, BenchmarkName, Kind, ParametersJson, Status, QueuedUtcMs, StartedUtcMs, EndedUtcMs, CompletedRequests, CancelRequested, RunnerName, WebhooksCheckedUtcMs)
            SELECT 1, Name, Kind, ParametersJson, 'Completed', {ended - 2000}, {ended - 1000}, {ended}, 40, 0, 'vm/1', {ended} FROM Benchmarks WHERE Id = 1;
            SELECT last_insert_rowid();
            """;
        var id = (long)insert.ExecuteScalar()!;
        SampleInsert.Write(connection, Enumerable.Range(0, 40).Select(i => new Sample
        {
            RunId = id, Index = i, OffsetNs = i * 12_000_000L, LatencyNs = 5_000_000 + i * 1_000, StatusCode = 200, Bytes = 4096, Connection = i % 4,
        }));
        transaction.Commit();
        return id;
    }
}
