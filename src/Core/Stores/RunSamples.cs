using System.Runtime.CompilerServices;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// A run's samples as every reader sees them, in index order: its packed blocks (<see cref="SampleBlock"/>) and any
/// rows of the store before blocks (<see cref="BenchDbContext.Samples"/>: a run not converted yet), merged. A
/// block is unpacked only when the merge reaches its first index, so a reader holds the run's packed bytes and the
/// few blocks whose indexes overlap (those the writer stored at about the same time), not every sample.
/// </summary>
public static class RunSamples
{
    /// <summary>Every sample of the run, one by one.</summary>
    public static IAsyncEnumerable<Sample> StreamAsync(BenchDbContext db, long runId, CancellationToken ct = default) =>
        MergeAsync(db.SampleBlocks.Where(b => b.RunId == runId), db.Samples.Where(s => s.RunId == runId), ct);

    /// <summary>The samples of one series of the run, one by one.</summary>
    public static IAsyncEnumerable<Sample> StreamSeriesAsync(BenchDbContext db, long runId, string series, CancellationToken ct = default) =>
        MergeAsync(db.SampleBlocks.Where(b => b.RunId == runId && b.Series == series), db.Samples.Where(s => s.RunId == runId && s.Series == series), ct);

    public static async Task<List<Sample>> ListAsync(BenchDbContext db, long runId, CancellationToken ct = default)
    {
        var samples = new List<Sample>();
        await foreach (var sample in StreamAsync(db, runId, ct)) samples.Add(sample);
        return samples;
    }

    /// <summary>How many samples the run has stored, in either store.</summary>
    /// <remarks>One statement, so a run converted meanwhile (<see cref="SampleRowsUpgrade"/>) is counted once.</remarks>
    public static async Task<int> CountAsync(BenchDbContext db, long runId, CancellationToken ct = default) =>
        await db.Runs.Where(r => r.Id == runId)
            .Select(r => db.SampleBlocks.Where(b => b.RunId == r.Id).Sum(b => b.Count) + db.Samples.Count(s => s.RunId == r.Id))
            .FirstOrDefaultAsync(ct);

    /// <remarks>Rows first: a run converted between the two queries is then found in its blocks.</remarks>
    public static async Task<bool> HasSeriesAsync(BenchDbContext db, long runId, string series, CancellationToken ct = default) =>
        await db.Samples.AnyAsync(s => s.RunId == runId && s.Series == series, ct) || await db.SampleBlocks.AnyAsync(b => b.RunId == runId && b.Series == series, ct);

    static async IAsyncEnumerable<Sample> MergeAsync(IQueryable<SampleBlock> blocks, IQueryable<Sample> rows, [EnumeratorCancellation] CancellationToken ct)
    {
        // The blocks first, whole: PostgreSQL reads one result at a time on a connection, and the rows stream after.
        var packedBlocks = await blocks.AsNoTracking().OrderBy(b => b.FirstIndex).ToListAsync(ct);
        var merge = new BlockMerge(packedBlocks);
        var anyRow = false;
        await foreach (var row in rows.AsNoTracking().OrderBy(s => s.Index).AsAsyncEnumerable().WithCancellation(ct))
        {
            anyRow = true;
            while (merge.TryTake(row.Index, out var packed)) yield return packed;
            yield return row;
        }
        // Neither blocks nor rows: the run may have been converted between the two queries (a run's samples are rows
        // or blocks, never both but for that instant), so its blocks are looked for again.
        if (!anyRow && packedBlocks.Count == 0) merge = new BlockMerge(await blocks.AsNoTracking().OrderBy(b => b.FirstIndex).ToListAsync(ct));
        while (merge.TryTake(long.MaxValue, out var packed)) yield return packed;
    }

    /// <summary>Blocks in first-index order, merged by index: a block is opened once the merge reaches its first index.</summary>
    sealed class BlockMerge(List<SampleBlock> blocks)
    {
        readonly PriorityQueue<Cursor, int> open = new();
        int next;

        sealed class Cursor(Sample[] samples)
        {
            public int At;
            public Sample Current => samples[At];
            public bool Advance() => ++At < samples.Length;
        }

        /// <summary>The next sample by index, if its index is below <paramref name="below"/>.</summary>
        public bool TryTake(long below, out Sample sample)
        {
            // A block whose first index comes before the smallest open one must be opened before anything is taken.
            while (next < blocks.Count && blocks[next].FirstIndex < below
                && (!open.TryPeek(out _, out var smallest) || blocks[next].FirstIndex < smallest))
            {
                var samples = blocks[next].Unpack();
                blocks[next++] = null!; // its bytes are no longer needed
                if (samples.Length > 0) open.Enqueue(new Cursor(samples), samples[0].Index);
            }
            if (!open.TryPeek(out var cursor, out var index) || index >= below)
            {
                sample = null!;
                return false;
            }
            open.Dequeue();
            sample = cursor.Current;
            if (cursor.Advance()) open.Enqueue(cursor, cursor.Current.Index);
            return true;
        }
    }
}
