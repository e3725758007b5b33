using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>
/// A database from before blocks converts its sample rows to blocks a run at a time: every sample of every ended run
/// reads back as it was, its digest is the same built from blocks as from rows, a conversion stopped half-way goes on
/// where it stopped, and a run that had not ended keeps its rows and is still read.
/// </summary>
public sealed class SampleRowsUpgradeTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    static string Row(Sample s) =>
        $"{s.RunId} {s.Index} {s.IsWarmup} {s.Connection} {s.OffsetNs} {s.LatencyNs} {s.HeadersNs} {s.ConnectNs} {s.StatusCode} {s.Bytes} {s.Error} {s.Series} {s.Hit} {s.LagNs} {s.Shard}";

    static async Task<Dictionary<long, List<string>>> RowsAsync(BenchDbContext db) =>
        (await db.Samples.AsNoTracking().OrderBy(s => s.RunId).ThenBy(s => s.Index).ToListAsync())
            .GroupBy(s => s.RunId).ToDictionary(g => g.Key, g => g.Select(Row).ToList());

    static async Task AssertEveryRunReadsAsAsync(BenchDbContext db, Dictionary<long, List<string>> rows)
    {
        foreach (var (runId, expected) in rows)
            Assert.Equal(expected, (await RunSamples.ListAsync(db, runId)).Select(Row));
    }

    [Fact]
    public async Task TheEf6DatabasesRowsBecomeBlocksThatReadAsTheRowsDidWithTheSameDigests()
    {
        using var dir = new TempDirectory();
        var path = dir.File("ef6.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await services.MigrateDatabaseAsync();
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var queries = scope.ServiceProvider.GetRequiredService<RunQueries>();
        var rows = await RowsAsync(db);
        Assert.Equal(Ef6Database.Samples, rows.Values.Sum(r => r.Count));
        var ended = await db.Runs.Where(r => rows.Keys.Contains(r.Id)).ToDictionaryAsync(r => r.Id, r => r.Status.IsFinal());
        // The digests as this version builds them from the rows.
        var fromRows = new Dictionary<long, string>();
        foreach (var runId in rows.Keys.Where(id => ended[id]))
            fromRows[runId] = Json.Serialize((await queries.ReportAsync(runId, default))!.Digest);

        var outcome = await services.GetRequiredService<SampleRowsUpgrade>().ConvertAsync(default);

        Assert.Equal((ended.Count(e => e.Value), ended.Count(e => !e.Value)), (outcome.Runs, outcome.Left));
        Assert.Equal(rows.Where(r => ended[r.Key]).Sum(r => r.Value.Count), outcome.Samples);
        Assert.Equal(Ef6Database.Samples - outcome.Samples, await db.Samples.CountAsync());
        await AssertEveryRunReadsAsAsync(db, rows);
        await db.Digests.ExecuteDeleteAsync();
        await db.Latencies.ExecuteDeleteAsync();
        foreach (var (runId, digest) in fromRows)
            Assert.Equal(digest, Json.Serialize((await queries.ReportAsync(runId, default))!.Digest));
        // A second pass finds nothing more to do.
        Assert.Equal(0, (await services.GetRequiredService<SampleRowsUpgrade>().ConvertAsync(default)).Runs);
    }

    [Fact]
    public async Task AConversionStoppedHalfWayLeavesWholeRunsAndGoesOnWhereItStopped()
    {
        using var dir = new TempDirectory();
        var path = dir.File("ef6.db");
        SqliteFiles.LoadEf6(path);
        await using var services = DatabaseServices.For(path);
        await services.MigrateDatabaseAsync();
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var rows = await RowsAsync(db);
        var upgrade = services.GetRequiredService<SampleRowsUpgrade>();

        using var stop = new CancellationTokenSource();
        var converted = new List<long>();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => upgrade.ConvertAsync(stop.Token, runId => { converted.Add(runId); if (converted.Count == 2) stop.Cancel(); }));

        var endedRuns = await db.Runs.Where(r => rows.Keys.Contains(r.Id)).Where(r => r.Status != RunStatus.Queued && r.Status != RunStatus.Running)
            .OrderBy(r => r.Id).Select(r => r.Id).ToListAsync();
        Assert.Equal(endedRuns.Take(2), converted);
        foreach (var runId in rows.Keys)
        {
            var left = await db.Samples.CountAsync(s => s.RunId == runId);
            var packed = await db.SampleBlocks.Where(b => b.RunId == runId).SumAsync(b => b.Count);
            Assert.Equal(converted.Contains(runId) ? (0, rows[runId].Count) : (rows[runId].Count, 0), (left, packed));
        }
        await AssertEveryRunReadsAsAsync(db, rows);

        var rest = await upgrade.ConvertAsync(default);
        Assert.Equal(rows.Count - 2, rest.Runs + rest.Left);
        await AssertEveryRunReadsAsAsync(db, rows);
    }

    /// <summary>
    /// A run inserted with the columns the schema before blocks has: this build's model has columns added since
    /// (<see cref="Run.SamplesDroppedUtcMs"/>), so EF's own insert would name a column the table lacks.
    /// </summary>
    static async Task InsertAsBeforeAsync(BenchDbContext db, Run run)
    {
        var type = db.Model.FindEntityType(typeof(Run))!;
        var table = Microsoft.EntityFrameworkCore.Metadata.StoreObjectIdentifier.Table(type.GetTableName()!, type.GetSchema());
        var properties = type.GetProperties().Where(p => p.Name != nameof(Run.SamplesDroppedUtcMs)).ToList();
        await using var command = db.Database.GetDbConnection().CreateCommand();
        command.CommandText = $"INSERT INTO \"Runs\" ({string.Join(", ", properties.Select(p => $"\"{p.GetColumnName(table)}\""))}) VALUES ({string.Join(", ", properties.Select((_, i) => $"@p{i}"))})";
        for (var i = 0; i < properties.Count; i++)
        {
            var value = properties[i].GetGetter().GetClrValue(run);
            if (value is not null && properties[i].GetTypeMapping().Converter is { } converter) value = converter.ConvertToProvider(value);
            var parameter = command.CreateParameter();
            parameter.ParameterName = $"@p{i}";
            parameter.Value = value ?? DBNull.Value;
            command.Parameters.Add(parameter);
        }
        await db.Database.OpenConnectionAsync();
        await command.ExecuteNonQueryAsync();
        await db.Database.CloseConnectionAsync();
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ADatabaseOfTheBuildBeforeBlocksConvertsItsEndedRunsAndStillReadsTheOneThatRan(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        await using var services = DatabaseServices.For(database);
        await using (var scope = services.CreateAsyncScope())
        {
            // The schema of the build before blocks, and its samples as its writer stored them (INSERT, or COPY).
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var before = db.Database.GetMigrations().TakeWhile(m => !m.EndsWith("_SampleBlocks", StringComparison.Ordinal)).Last();
            await db.GetService<IMigrator>().MigrateAsync(before);
            var ended = new Run { Id = 1, Kind = "cache", ParametersJson = "{}", QueuedUtcMs = 1, Status = RunStatus.Completed, EndedUtcMs = 2 };
            var running = new Run { Id = 2, Kind = "http", ParametersJson = "{}", QueuedUtcMs = 3, Status = RunStatus.Running };
            foreach (var run in new[] { ended, running }) await InsertAsBeforeAsync(db, run);
            var samples = Enumerable.Range(0, 9_000).Select(i => new Sample
            {
                RunId = ended.Id, Index = i, Series = i % 3 == 0 ? "write" : "read-hit", OffsetNs = i * 1_000L, LatencyNs = 50_000 + i % 97,
                Hit = i % 3 == 0 ? null : i % 5 != 0, IsWarmup = i < 30, Connection = i % 8,
            }).Concat(Enumerable.Range(0, 10).Select(i => new Sample { RunId = running.Id, Index = i, LatencyNs = 1_000 + i, StatusCode = 200 })).ToList();
            await db.Database.OpenConnectionAsync();
            await using (var transaction = await db.Database.BeginTransactionAsync())
            {
                if (db.IsPostgreSql()) SampleCopy.Write((NpgsqlConnection)db.Database.GetDbConnection(), samples);
                else SampleInsert.Write((SqliteConnection)db.Database.GetDbConnection(), samples);
                await transaction.CommitAsync();
            }
            await db.Database.CloseConnectionAsync();
        }

        await services.MigrateDatabaseAsync();
        await using var readScope = services.CreateAsyncScope();
        var read = readScope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var rows = await RowsAsync(read);
        var outcome = await services.GetRequiredService<SampleRowsUpgrade>().ConvertAsync(default);

        Assert.Equal((1, 9_000L, 1), (outcome.Runs, outcome.Samples, outcome.Left));
        Assert.Equal(10, await read.Samples.CountAsync()); // the run that had not ended keeps its rows
        Assert.Equal([4_096, 1_904, 3_000], await read.SampleBlocks.OrderBy(b => b.Series).ThenBy(b => b.FirstIndex).Select(b => b.Count).ToListAsync());
        await AssertEveryRunReadsAsAsync(read, rows);
    }
}
