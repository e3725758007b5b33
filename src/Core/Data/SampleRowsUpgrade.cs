using System.Buffers.Binary;
using System.Security.Cryptography;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Runs.Packing;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Converts a database's sample rows (the store before blocks) into blocks, one run at a time, each in a transaction
/// of its own: the rows are read in index order and packed, the blocks written and read back, and only when the
/// blocks hold the same number of samples with the same checksum (SHA-256 of every field, per series in index
/// order) are the run's rows deleted, in the same transaction. A kill leaves each run either converted or not, so
/// the next start goes on where it stopped; meanwhile readers serve a run from whichever store holds it
/// (<see cref="Stores.RunSamples"/>). Runs not yet ended are left for a later pass: a writer of an older version
/// could still be adding rows to them.
/// </summary>
public sealed class SampleRowsUpgrade(IServiceScopeFactory scopes, TimeProvider time, ILogger<SampleRowsUpgrade> logger)
{
    /// <summary>One number for every dashboard's conversion on one PostgreSQL database: they take turns by run.</summary>
    const long AdvisoryLock = 0x5341_4D50_4C45_5300; // "SAMPLES\0"

    /// <summary>What a pass did: runs converted, their samples, and runs left as rows (not ended, or not verified).</summary>
    public sealed record Outcome(int Runs, long Samples, int Left);

    /// <summary>Converts every ended run that still has rows, in run order; <paramref name="converted"/> hears of each.</summary>
    public async Task<Outcome> ConvertAsync(CancellationToken ct, Action<long>? converted = null)
    {
        int runs = 0, left = 0;
        long samples = 0, after = long.MinValue;
        while (true)
        {
            long? next;
            await using (var scope = scopes.CreateAsyncScope())
                next = await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Samples
                    .Where(s => s.RunId > after).OrderBy(s => s.RunId).Select(s => (long?)s.RunId).FirstOrDefaultAsync(ct);
            if (next is not { } runId) return new Outcome(runs, samples, left);
            after = runId;
            await WhileMeasuringAsync(ct);
            if (await ConvertRunAsync(runId, ct) is { } count)
            {
                runs++;
                samples += count;
                converted?.Invoke(runId);
            }
            else left++;
        }
    }

    /// <summary>
    /// On SQLite, waits while a run is measuring: one writer at a time, and a run's sample writer must not wait
    /// behind a conversion's transaction (a big run's takes seconds) until its load is stopped for a stall. A
    /// PostgreSQL server takes both at once.
    /// </summary>
    async Task WhileMeasuringAsync(CancellationToken ct)
    {
        while (true)
        {
            await using var scope = scopes.CreateAsyncScope();
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            // A run marked running whose runner died (no heartbeat lately) is not measuring: it is recovered later.
            var alive = time.GetUtcNow().ToUnixTimeMilliseconds() - (long)MeasuringHeartbeat.TotalMilliseconds;
            if (db.IsPostgreSql() || !await db.Runs.AnyAsync(r => r.Status == RunStatus.Running && r.HeartbeatUtcMs > alive, ct)) return;
            await Task.Delay(MeasuringPoll, ct);
        }
    }

    static readonly TimeSpan MeasuringPoll = TimeSpan.FromSeconds(2), MeasuringHeartbeat = TimeSpan.FromSeconds(30);

    /// <summary>The run's rows as blocks; how many samples, or null when it was left as rows.</summary>
    async Task<long?> ConvertRunAsync(long runId, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await using var transaction = await db.Database.BeginTransactionAsync(ct);
        if (db.IsPostgreSql()) await db.Database.ExecuteSqlRawAsync($"SELECT pg_advisory_xact_lock({AdvisoryLock})", ct);
        if (await db.Runs.Where(r => r.Id == runId).Select(r => (RunStatus?)r.Status).SingleOrDefaultAsync(ct) is not { } status || !status.IsFinal())
            return null;

        // Read in index order (the key's), packed a series at a time as each fills a block: memory is the packed run.
        var blocks = new List<SampleBlock>();
        var open = new Dictionary<string, List<Sample>>();
        var fromRows = new Checksums();
        long count = 0;
        await foreach (var row in db.Samples.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).AsAsyncEnumerable().WithCancellation(ct))
        {
            count++;
            fromRows.Add(row);
            var key = row.Series ?? "";
            if (!open.TryGetValue(key, out var pending)) open[key] = pending = new List<Sample>(SamplePacking.BlockSamples);
            pending.Add(row);
            if (pending.Count == SamplePacking.BlockSamples)
            {
                blocks.AddRange(SampleBlock.Pack(runId, pending));
                pending.Clear();
            }
        }
        foreach (var pending in open.Values.Where(p => p.Count > 0)) blocks.AddRange(SampleBlock.Pack(runId, pending));
        if (count == 0) return null; // converted meanwhile by another dashboard

        var connection = db.Database.GetDbConnection();
        var dbTransaction = transaction.GetDbTransaction();
        foreach (var block in blocks) SampleBlockAppender.Insert(connection, dbTransaction, block);

        // Read back what was written, as any reader will.
        var firsts = blocks.Select(b => b.FirstIndex).ToHashSet();
        var fromBlocks = new Checksums();
        long stored = 0;
        await foreach (var block in db.SampleBlocks.AsNoTracking().Where(b => b.RunId == runId).OrderBy(b => b.FirstIndex).AsAsyncEnumerable().WithCancellation(ct))
        {
            if (!firsts.Contains(block.FirstIndex)) continue; // a block the run had before (rows and blocks both)
            foreach (var sample in block.Unpack())
            {
                stored++;
                fromBlocks.Add(sample);
            }
        }
        if (stored != count || !fromRows.SameAs(fromBlocks))
        {
            logger.LogError("Run {RunId}'s samples were not converted to blocks: the blocks read back {Stored} samples of the {Count} rows, or another checksum; its rows are kept", runId, stored, count);
            return null; // rolled back on dispose
        }
        var deleted = await db.Samples.Where(s => s.RunId == runId).ExecuteDeleteAsync(ct);
        if (deleted != count)
        {
            logger.LogError("Run {RunId}'s samples were not converted to blocks: {Deleted} rows were there to delete, {Count} read; its rows are kept", runId, deleted, count);
            return null;
        }
        await transaction.CommitAsync(ct);
        return count;
    }

    /// <summary>A SHA-256 per series over every field of its samples in the order they come (index order).</summary>
    sealed class Checksums
    {
        readonly Dictionary<string, IncrementalHash> hashes = [];
        readonly byte[] buffer = new byte[96];

        public void Add(Sample s)
        {
            var key = s.Series is null ? "" : "s:" + s.Series;
            if (!hashes.TryGetValue(key, out var hash)) hashes[key] = hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            at = 0;
            Long(s.Index); Long(s.OffsetNs); Long(s.LatencyNs); Maybe(s.LagNs); Maybe(s.HeadersNs); Maybe(s.ConnectNs); Maybe(s.StatusCode);
            Long(s.Bytes); Long((long)s.Error); Long(s.Connection); Maybe(s.Shard);
            buffer[at++] = (byte)((s.IsWarmup ? 1 : 0) | (s.Hit is null ? 0 : s.Hit.Value ? 2 : 4));
            hash.AppendData(buffer, 0, at);
        }

        int at;

        void Long(long value)
        {
            BinaryPrimitives.WriteInt64LittleEndian(buffer.AsSpan(at), value);
            at += 8;
        }

        void Maybe(long? value)
        {
            buffer[at++] = value is null ? (byte)0 : (byte)1;
            Long(value ?? 0);
        }

        public bool SameAs(Checksums other) =>
            hashes.Count == other.hashes.Count
            && hashes.All(h => other.hashes.TryGetValue(h.Key, out var theirs) && h.Value.GetCurrentHash().AsSpan().SequenceEqual(theirs.GetCurrentHash()));
    }
}
