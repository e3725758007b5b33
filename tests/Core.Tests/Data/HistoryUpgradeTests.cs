using BenchDashboard.Core.Data;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>A history stored by the build before the change rule (every migration before its own) opened by this one.</summary>
public class HistoryUpgradeTests
{
    const string LastBeforeChangeRule = "20261126021828_SharedKeys";

    [Fact]
    public async Task AnOldHistoryIsJudgedByTheChangeRuleWithEveryRunKeptAndNothingAnnouncedAgain()
    {
        using var dir = new TempDirectory();
        var path = dir.File("before-change-rule.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await using (var scope = services.CreateAsyncScope())
            await scope.ServiceProvider.GetRequiredService<BenchDbContext>().GetService<IMigrator>().MigrateAsync(LastBeforeChangeRule);
        // Benchmark 1's history as the old build left it: ten runs at about 5 ms, then four at about 10 ms, each
        // ended and settled for webhooks (its outcome judged by the old rule), no summary stored yet.
        var history = Enumerable.Range(0, 14).Select(i => AddRun(path, i, i < 10 ? 5_000_000 : 10_000_000)).ToList();
        var before = SqliteFiles.Rows(path, "SELECT Id, Status, ParametersJson, EndedUtcMs, WebhooksCheckedUtcMs FROM Runs ORDER BY Id");

        await services.MigrateDatabaseAsync();

        Assert.Equal(before, SqliteFiles.Rows(path, "SELECT Id, Status, ParametersJson, EndedUtcMs, WebhooksCheckedUtcMs FROM Runs ORDER BY Id"));
        await using var after = services.CreateAsyncScope();
        var db = after.ServiceProvider.GetRequiredService<BenchDbContext>();
        var runs = after.ServiceProvider.GetRequiredService<RunHistory>();
        Assert.Equal(Ef6Database.Runs + 14, await db.Runs.CountAsync());
        Assert.Equal(Ef6Database.Samples + 14 * 40, await db.Samples.CountAsync());
        Assert.Equal(1, await runs.JudgeUnjudgedAsync(10, default));

        var benchmark = await db.Benchmarks.AsNoTracking().SingleAsync(b => b.Id == 1);
        var (points, view) = await runs.ViewAsync(benchmark, 500, default);
        Assert.Equal(15, points.Count); // the fixture's own run of benchmark 1 and the fourteen
        Assert.All(points, p => Assert.NotNull(p.History));
        var change = Assert.Single(view.Changes);
        Assert.Equal((history[10], history[12], ChangeDirection.Regression), (change.SinceRunId, change.ConfirmedByRunId, change.Evidence.Call));
        Assert.InRange(1 + change.Evidence.Headline.Change, 1.8, 2.2);
        Assert.True(points.Single(p => p.Run.Id == history[12]).History!.Flagged);
        Assert.Equal(2, view.Segments.Count);

        // Settled runs are not announced again, whatever the new rule says of them.
        var notifications = after.ServiceProvider.GetRequiredService<RunNotifications>();
        Assert.Equal(0, await notifications.JudgeFinishedRunsAsync(p => p, 100, default));
        Assert.Empty(await db.WebhookDeliveries.ToListAsync());
    }

    /// <summary>A completed run of benchmark 1 with 40 samples around <paramref name="medianNs"/>, in the old schema.</summary>
    static long AddRun(string path, int n, long medianNs)
    {
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False");
        connection.Open();
        using var transaction = connection.BeginTransaction();
        using var insert = connection.CreateCommand();
        var ended = 1_795_600_000_000 + n * 60_000L;
        insert.CommandText = $"""
            INSERT INTO Runs (BenchmarkId, BenchmarkName, Kind, ParametersJson, Status, QueuedUtcMs, StartedUtcMs, EndedUtcMs, CompletedRequests, CancelRequested, RunnerName, WebhooksCheckedUtcMs)
            SELECT 1, Name, Kind, ParametersJson, 'Completed', {ended - 2000}, {ended - 1000}, {ended}, 40, 0, 'vm/1', {ended} FROM Benchmarks WHERE Id = 1;
            SELECT last_insert_rowid();
            """;
        var id = (long)insert.ExecuteScalar()!;
        var random = new Random(n);
        SampleInsert.Write(connection, Enumerable.Range(0, 40).Select(i => new Sample
        {
            RunId = id, Index = i, OffsetNs = i * 12_000_000L, LatencyNs = (long)(medianNs * Math.Exp(0.05 * (random.NextDouble() - 0.5) + 0.01 * (n % 3))),
            StatusCode = 200, Bytes = 4096, Connection = i % 4,
        }));
        transaction.Commit();
        return id;
    }
}
