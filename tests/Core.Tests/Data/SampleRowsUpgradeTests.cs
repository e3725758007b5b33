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

    /// <summary>
    /// The runs the build before blocks made, with their samples as its writer stored them: an HTTP run with warm-up,
    /// status codes, phases and errors; a run on each of two agents (series per configuration, shards, its plan); a
    /// journey (a series per step and the iteration's); a run still running; another ended HTTP run.
    /// </summary>
    static async Task<Dictionary<long, int>> FillAsBeforeBlocksAsync(BenchDbContext db)
    {
        var before = db.Database.GetMigrations().TakeWhile(m => !m.EndsWith("_SampleBlocks", StringComparison.Ordinal)).Last();
        await db.GetService<IMigrator>().MigrateAsync(before);
        var onEach = new Core.Agents.OnEach(["cfg0", "cfg1"], 2);
        var runs = new[]
        {
            new Run { Id = 1, Kind = "http", ParametersJson = """{"url":"http://127.0.0.1:1/x"}""", QueuedUtcMs = 1, Status = RunStatus.Completed, EndedUtcMs = 2 },
            new Run { Id = 2, Kind = "http", ParametersJson = """{"url":"http://127.0.0.1:1/x"}""", QueuedUtcMs = 3, Status = RunStatus.Completed, EndedUtcMs = 4,
                Agents = 2, OnEachJson = onEach.ToJson(), AgentsJson = """[{"agent":"cfg0"},{"agent":"cfg1"}]""" },
            new Run { Id = 3, Kind = "http", ParametersJson = """{"steps":[{"name":"sign-in"},{"name":"orders"},{"name":"detail"}]}""", QueuedUtcMs = 5, Status = RunStatus.Failed, EndedUtcMs = 6, Error = "a step's check failed" },
            new Run { Id = 4, Kind = "http", ParametersJson = "{}", QueuedUtcMs = 7, Status = RunStatus.Running },
            new Run { Id = 5, Kind = "http", ParametersJson = "{}", QueuedUtcMs = 8, Status = RunStatus.Cancelled, EndedUtcMs = 9 },
        };
        foreach (var run in runs) await InsertAsBeforeAsync(db, run);
        string[] steps = ["sign-in", "orders", "detail", "iteration"];
        var samples = Enumerable.Range(0, 5_000).Select(i => new Sample
            {
                RunId = 1, Index = i, IsWarmup = i < 50, Connection = i % 4, OffsetNs = i * 200_003L, LatencyNs = 900_000 + i * 7 % 5_000,
                HeadersNs = 800_000 + i % 300, ConnectNs = i < 4 ? 60_000 : null, StatusCode = i % 50 == 0 ? 503 : 200, Bytes = 4096,
                Error = i % 97 == 0 ? ErrorKind.Timeout : ErrorKind.None,
            })
            .Concat(Enumerable.Range(0, 8_000).Select(i => new Sample
            {
                // Each agent's turns in rounds: cfg0 then cfg1, twice, its own shard and series.
                RunId = 2, Index = i, Shard = i / 2_000 % 2, Series = Core.Agents.OnEach.SeriesOf(onEach.Agents[i / 2_000 % 2], null), Connection = i % 8,
                OffsetNs = 1_000_000_000L * (i / 2_000) + i % 2_000 * 500_000L, LatencyNs = 1_200_000 + i % 1_013, StatusCode = 200, Bytes = 512, IsWarmup = i % 2_000 < 20,
            }))
            .Concat(Enumerable.Range(0, 6_000).Select(i => new Sample
            {
                // A journey: each iteration's steps in order, then the iteration as a whole, on the worker's connection.
                RunId = 3, Index = i, Series = steps[i % 4], Connection = i / 4 % 2, OffsetNs = i * 1_000_000L, LatencyNs = i % 4 == 3 ? 3_300_000 + i : 1_000_000 + i % 4 * 100_000,
                HeadersNs = i % 4 == 3 ? null : 900_000, StatusCode = i % 4 == 3 ? null : (i % 400 == 1 ? 500 : 200), Bytes = i % 4 == 3 ? 0 : 2_048,
                Error = i % 400 == 1 ? ErrorKind.ServerError : i % 400 == 3 ? ErrorKind.CheckFailed : ErrorKind.None,
            }))
            .Concat(Enumerable.Range(0, 10).Select(i => new Sample { RunId = 4, Index = i, LatencyNs = 1_000 + i, StatusCode = 200 }))
            .Concat(Enumerable.Range(0, 3_000).Select(i => new Sample { RunId = 5, Index = i, OffsetNs = i * 50_000L, LatencyNs = 40_000 + i % 17, StatusCode = 200, Bytes = 10 }))
            .ToList();
        await db.Database.OpenConnectionAsync();
        await using (var transaction = await db.Database.BeginTransactionAsync())
        {
            if (db.IsPostgreSql()) SampleCopy.Write((NpgsqlConnection)db.Database.GetDbConnection(), samples);
            else SampleInsert.Write((SqliteConnection)db.Database.GetDbConnection(), samples);
            await transaction.CommitAsync();
        }
        await db.Database.CloseConnectionAsync();
        return samples.GroupBy(s => s.RunId).ToDictionary(g => g.Key, g => g.Count());
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ABuildBeforeBlocksOnEachAndJourneyRunsConvertAndAKillBeforeARunsRowsAreDeletedLosesNothing(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        using var killedFiles = new TempDirectory();
        var kill = new KillBeforeRowsDeleted(killAt: 3, database.ConnectionString, database.DatabasePath, killedFiles.Path);
        Dictionary<long, List<string>> rows;
        await using (var services = DatabaseServices.For(database, more => more.ConfigureDbContext<BenchDbContext>(o => o.AddInterceptors(kill))))
        {
            await using (var scope = services.CreateAsyncScope())
                await FillAsBeforeBlocksAsync(scope.ServiceProvider.GetRequiredService<BenchDbContext>());
            await services.MigrateDatabaseAsync();
            await using (var scope = services.CreateAsyncScope())
                rows = await RowsAsync(scope.ServiceProvider.GetRequiredService<BenchDbContext>());
            var converted = new List<long>();

            // Runs 1 and 2 convert; run 3 (the journey) is killed with its blocks written and verified, its rows not yet deleted.
            await Assert.ThrowsAnyAsync<Exception>(() => services.GetRequiredService<SampleRowsUpgrade>().ConvertAsync(default, converted.Add));
            Assert.True(kill.Killed);
            Assert.Equal([1, 2], converted);
        }
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        NpgsqlConnection.ClearAllPools();

        // What the kill left: on SQLite the files as they were at that instant, on PostgreSQL the database.
        await using var after = kill.KilledCopy is { } copy ? DatabaseServices.For(copy) : DatabaseServices.For(database);
        await using var readScope = after.CreateAsyncScope();
        var read = readScope.ServiceProvider.GetRequiredService<BenchDbContext>();
        async Task<(int Rows, int InBlocks)> StoredAsync(long runId) =>
            (await read.Samples.CountAsync(s => s.RunId == runId), await read.SampleBlocks.Where(b => b.RunId == runId).SumAsync(b => b.Count));
        foreach (var runId in rows.Keys)
            Assert.Equal(runId <= 2 ? (0, rows[runId].Count) : (rows[runId].Count, 0), await StoredAsync(runId));
        await AssertEveryRunReadsAsAsync(read, rows);

        var rest = await after.GetRequiredService<SampleRowsUpgrade>().ConvertAsync(default);

        Assert.Equal((2, 6_000L + 3_000, 1), (rest.Runs, rest.Samples, rest.Left));
        foreach (var runId in rows.Keys)
            Assert.Equal(runId == 4 ? (10, 0) : (0, rows[runId].Count), await StoredAsync(runId));
        // Each series in blocks of its own, as many samples as it had rows.
        Assert.Equal(["cfg0 4000", "cfg1 4000"], (await read.SampleBlocks.Where(b => b.RunId == 2).GroupBy(b => b.Series).Select(g => new { g.Key, Count = g.Sum(b => b.Count) }).ToListAsync())
            .Select(g => $"{g.Key} {g.Count}").Order());
        Assert.Equal(["detail 1500", "iteration 1500", "orders 1500", "sign-in 1500"], (await read.SampleBlocks.Where(b => b.RunId == 3).GroupBy(b => b.Series).Select(g => new { g.Key, Count = g.Sum(b => b.Count) }).ToListAsync())
            .Select(g => $"{g.Key} {g.Count}").Order(StringComparer.Ordinal));
        await AssertEveryRunReadsAsAsync(read, rows);
    }
}
