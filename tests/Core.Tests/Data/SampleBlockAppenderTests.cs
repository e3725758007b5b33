using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Runs.Packing;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>
/// Batches stored as blocks, on either provider: each committed batch is readable at once, blocks stay full
/// whatever the batch size, a batch whose transaction rolled back leaves nothing and is written again from the same
/// state, and a run's blocks and old rows read back merged in index order.
/// </summary>
public sealed class SampleBlockAppenderTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    static Sample SampleOf(long runId, int index, string? series) => new()
    {
        RunId = runId, Index = index, Series = series, OffsetNs = index * 10_000L + index % 7, LatencyNs = 1_000_000 + index * 31 % 5_000,
        HeadersNs = index % 5 == 0 ? null : 900_000, StatusCode = index % 11 == 0 ? 500 : 200, Error = index % 11 == 0 ? ErrorKind.HttpStatus : ErrorKind.None,
        Bytes = 4096, Connection = index % 4, IsWarmup = index < 20, Hit = series is null ? null : index % 3 == 0,
    };

    static string Row(Sample s) =>
        $"{s.RunId} {s.Index} {s.IsWarmup} {s.Connection} {s.OffsetNs} {s.LatencyNs} {s.HeadersNs} {s.ConnectNs} {s.StatusCode} {s.Bytes} {s.Error} {s.Series} {s.Hit} {s.LagNs} {s.Shard}";

    static async Task<List<string>> SeriesAsync(BenchDbContext db, long runId, string series)
    {
        var rows = new List<string>();
        await foreach (var s in RunSamples.StreamSeriesAsync(db, runId, series)) rows.Add(Row(s));
        return rows;
    }

    static async Task<long> RunAsync(BenchDbContext db)
    {
        var run = new Run { Kind = "cache", ParametersJson = "{}", QueuedUtcMs = 1 };
        db.Runs.Add(run);
        await db.SaveChangesAsync();
        return run.Id;
    }

    static SampleBlockAppender.Written Write(BenchDbContext db, SampleBlockAppender appender, IReadOnlyList<Sample> batch, bool commit = true)
    {
        using var transaction = db.Database.BeginTransaction();
        var written = appender.Write(db.Database.GetDbConnection(), transaction.GetDbTransaction(), batch);
        if (!commit) return written; // disposed: rolled back
        transaction.Commit();
        appender.Committed(written);
        return written;
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task BatchesOutOfOrderBecomeFullBlocksThatReadBackInIndexOrder(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        await using var services = DatabaseServices.For(database);
        await services.MigrateDatabaseAsync();
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var runId = await RunAsync(db);

        // Two series in turn, 10,000 samples, arriving as requests complete (up to 50 places late) in batches of 37.
        var samples = Enumerable.Range(0, 10_000).Select(i => SampleOf(runId, i, i < 6_000 ? "read-hit" : "read-miss")).ToList();
        var random = new Random(1);
        var arriving = samples.OrderBy(s => s.Index + random.Next(50)).ToList();
        var appender = new SampleBlockAppender();
        for (var at = 0; at < arriving.Count; at += 37)
        {
            Write(db, appender, arriving.GetRange(at, Math.Min(37, arriving.Count - at)));
            // What is committed is readable at once: the samples so far, in index order.
            if (at % 1_369 == 0)
                Assert.Equal(arriving.Take(at + 37).Select(s => s.Index).Order(), (await RunSamples.ListAsync(db, runId)).Select(s => s.Index));
        }

        var blocks = await db.SampleBlocks.AsNoTracking().Where(b => b.RunId == runId).OrderBy(b => b.Series).ThenBy(b => b.FirstIndex).ToListAsync();
        // 6,000 hits: one full block and one of 1,904; 4,000 misses: one block. Only the last of each series is not full.
        Assert.Equal([("read-hit", SamplePacking.BlockSamples), ("read-hit", 6_000 - SamplePacking.BlockSamples), ("read-miss", 4_000)],
            blocks.Select(b => (b.Series!, b.Count)));
        Assert.All(blocks, b => Assert.Equal((b.FirstIndex, b.LastIndex, b.MinOffsetNs, b.MaxOffsetNs),
            (b.Unpack()[0].Index, b.Unpack()[^1].Index, b.Unpack().Min(s => s.OffsetNs), b.Unpack().Max(s => s.OffsetNs))));
        Assert.Equal(samples.Select(Row), (await RunSamples.ListAsync(db, runId)).Select(Row));
        Assert.Equal(samples.Where(s => s.Series == "read-miss").Select(Row), await SeriesAsync(db, runId, "read-miss"));
        Assert.Equal(10_000, await RunSamples.CountAsync(db, runId));
        Assert.True(await RunSamples.HasSeriesAsync(db, runId, "read-miss"));
        Assert.False(await RunSamples.HasSeriesAsync(db, runId, "write"));
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ABatchRolledBackLeavesNothingAndIsWrittenAgainFromTheSameTail(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        await using var services = DatabaseServices.For(database);
        await services.MigrateDatabaseAsync();
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var runId = await RunAsync(db);
        var appender = new SampleBlockAppender();
        var first = Enumerable.Range(0, 100).Select(i => SampleOf(runId, i, null)).ToList();
        var second = Enumerable.Range(100, 100).Select(i => SampleOf(runId, i, null)).ToList();

        Write(db, appender, first);
        Write(db, appender, second, commit: false);
        Assert.Equal(first.Select(Row), (await RunSamples.ListAsync(db, runId)).Select(Row));
        Write(db, appender, second);

        Assert.Equal(first.Concat(second).Select(Row), (await RunSamples.ListAsync(db, runId)).Select(Row));
        Assert.Equal(200, Assert.Single(await db.SampleBlocks.AsNoTracking().Where(b => b.RunId == runId).ToListAsync()).Count);
    }

    [Fact]
    public async Task ARunWithBlocksAndOldRowsReadsAsOneInIndexOrder()
    {
        await using var database = await TestDatabase.CreateAsync("sqlite");
        await using var services = DatabaseServices.For(database);
        await services.MigrateDatabaseAsync();
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var runId = await RunAsync(db);
        var samples = Enumerable.Range(0, 9_000).Select(i => SampleOf(runId, i, null)).ToList();
        // Every third sample a row; the rest in blocks whose index ranges overlap each other and the rows'.
        db.Samples.AddRange(samples.Where(s => s.Index % 3 == 0).Select(s => s.Copy()));
        db.SampleBlocks.AddRange(SampleBlock.Pack(runId, samples.Where(s => s.Index % 3 == 1)));
        db.SampleBlocks.AddRange(SampleBlock.Pack(runId, samples.Where(s => s.Index % 3 == 2)));
        await db.SaveChangesAsync();
        db.ChangeTracker.Clear();

        Assert.Equal(samples.Select(Row), (await RunSamples.ListAsync(db, runId)).Select(Row));
        Assert.Equal(9_000, await RunSamples.CountAsync(db, runId));
    }
}
