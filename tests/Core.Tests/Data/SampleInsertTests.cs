using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>
/// The SQLite sample insert binds each column itself, through SQLite's own API: what it stores must read back through
/// EF exactly as the sample was, nulls included, and its failures must be the SqliteExceptions storage faults are read from.
/// </summary>
public sealed class SampleInsertTests
{
    static async Task<(TempDirectory Dir, BenchDbContext Db, long RunId)> DatabaseAsync()
    {
        var dir = new TempDirectory();
        var db = new BenchDbContext(new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={dir.File("samples.db")}").Options);
        await db.Database.MigrateAsync();
        var run = new Run { Kind = "http", ParametersJson = "{}", QueuedUtcMs = 1 };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return (dir, db, run.Id);
    }

    static void Write(BenchDbContext db, IEnumerable<Sample> samples)
    {
        using var transaction = db.Database.BeginTransaction();
        SampleInsert.Write((SqliteConnection)db.Database.GetDbConnection(), samples);
        transaction.Commit();
    }

    static string Row(Sample s) =>
        $"{s.RunId} {s.Index} {s.IsWarmup} {s.Connection} {s.OffsetNs} {s.LatencyNs} {s.HeadersNs?.ToString() ?? "-"} {s.ConnectNs?.ToString() ?? "-"} "
        + $"{s.StatusCode?.ToString() ?? "-"} {s.Bytes} {s.Error} {s.Series ?? "-"} {s.Hit?.ToString() ?? "-"} {s.LagNs?.ToString() ?? "-"} {s.Shard?.ToString() ?? "-"}";

    [Fact]
    public async Task EverySampleReadsBackAsItWasNullsIncluded()
    {
        var (dir, db, runId) = await DatabaseAsync();
        using var _ = dir;
        await using var __ = db;
        Sample[] samples =
        [
            new() { RunId = runId, Index = 0, IsWarmup = true, Connection = 3, OffsetNs = 5, LatencyNs = long.MaxValue, HeadersNs = 7, ConnectNs = 8,
                StatusCode = 503, Bytes = 1L << 40, Error = ErrorKind.HttpStatus, Series = "größe/read-same", Hit = false, LagNs = -9, Shard = 2 },
            new() { RunId = runId, Index = 1, OffsetNs = 10, LatencyNs = 11, Bytes = 0, Error = ErrorKind.None },
            new() { RunId = runId, Index = 2, LatencyNs = 12, Error = ErrorKind.Timeout, Hit = true, Series = "" },
        ];

        Write(db, samples);

        var stored = await db.Samples.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync();
        Assert.Equal(samples.Select(Row), stored.Select(Row));
    }

    [Fact]
    public async Task AFailedRowThrowsSqlitesOwnExceptionAndTheBatchStoresNothing()
    {
        var (dir, db, runId) = await DatabaseAsync();
        using var _ = dir;
        await using var __ = db;
        Write(db, [new Sample { RunId = runId, Index = 0, LatencyNs = 1 }]);

        // The second sample repeats the first's key: SQLite refuses it, and the transaction it was in is not committed.
        var refused = Assert.Throws<SqliteException>(() =>
        {
            using var transaction = db.Database.BeginTransaction();
            SampleInsert.Write((SqliteConnection)db.Database.GetDbConnection(), [new Sample { RunId = runId, Index = 1, LatencyNs = 2 }, new Sample { RunId = runId, Index = 0, LatencyNs = 3 }]);
            transaction.Commit();
        });

        Assert.Equal(19, refused.SqliteErrorCode); // SQLITE_CONSTRAINT
        Assert.Equal([1L], await db.Samples.AsNoTracking().Where(s => s.RunId == runId).Select(s => s.LatencyNs).ToListAsync());
    }

    [Fact]
    public void EachIntegerColumnBindsWhatTheDatabaseValueIs()
    {
        var sample = new Sample { RunId = 4, Index = 5, IsWarmup = true, Connection = 6, OffsetNs = 7, LatencyNs = 8, HeadersNs = 9, StatusCode = 200, Bytes = 10,
            Error = ErrorKind.ConnectionReset, Series = "s", Hit = false, LagNs = 11, Shard = 1 };
        foreach (var column in SampleColumns.All)
        {
            var expected = column.DatabaseValue(sample) switch { DBNull => (long?)null, bool flag => flag ? 1 : 0, string => null, var value => Convert.ToInt64(value) };
            if (column.Integer is null) Assert.IsType<string>(column.Read(sample));
            else Assert.Equal(expected, column.Integer(sample));
        }
    }
}
