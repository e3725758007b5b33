using BenchDashboard.Core.Data;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// Keeps a long-lived dashboard from growing forever (<see cref="RunsOptions.KeepDays"/>, off by default): finished
/// runs that ended longer ago than that are deleted with their samples and digests, one run at a time, and not
/// while a run is being measured (a delete of a million samples holds the database's write lock for seconds).
/// </summary>
public sealed class RunRetention(BenchDbContext db, RunQueue queue, RunDigests digests, IOptions<RunsOptions> options, TimeProvider time)
{
    /// <summary>Deletes up to <paramref name="max"/> expired runs; returns how many, or 0 when retention is off or a run is under way.</summary>
    public async Task<int> DeleteExpiredAsync(int max, CancellationToken ct)
    {
        if (options.Value.KeepDays is not { } days) return 0;
        var cutoff = time.GetUtcNow().AddDays(-days).ToUnixTimeMilliseconds();
        var deleted = 0;
        while (deleted < max && !await db.Runs.AnyAsync(r => r.Status == RunStatus.Running, ct))
        {
            var expired = await db.Runs.AsNoTracking()
                .Where(r => r.Status != RunStatus.Queued && r.Status != RunStatus.Running && (r.EndedUtcMs ?? r.QueuedUtcMs) < cutoff)
                .OrderBy(r => r.Id).Select(r => (long?)r.Id).FirstOrDefaultAsync(ct);
            if (expired is not { } id) break;
            if (await queue.DeleteAsync(id, ct) != DeleteOutcome.Deleted) break; // it started running meanwhile
            deleted++;
        }
        return deleted;
    }

    /// <summary>
    /// Drops the samples of up to <paramref name="max"/> finished runs older than <see cref="RunsOptions.KeepSamplesDays"/>,
    /// each once its digests are stored (built now from its samples if need be), and records when; returns how many.
    /// </summary>
    public async Task<int> DropExpiredSamplesAsync(int max, CancellationToken ct)
    {
        if (options.Value.KeepSamplesDays is not { } days) return 0;
        var now = time.GetUtcNow();
        var cutoff = now.AddDays(-days).ToUnixTimeMilliseconds();
        var dropped = 0;
        while (dropped < max)
        {
            var run = await db.Runs.AsNoTracking()
                .Where(r => r.Status != RunStatus.Queued && r.Status != RunStatus.Running && r.SamplesDroppedUtcMs == null && (r.EndedUtcMs ?? r.QueuedUtcMs) < cutoff)
                .OrderBy(r => r.Id).FirstOrDefaultAsync(ct);
            if (run is null) break;
            // Its digests, of this version, are what its pages and comparisons read from now on.
            if (!await db.Digests.AnyAsync(d => d.RunId == run.Id && d.Version == RunDigest.CurrentVersion, ct) || !await db.Latencies.AnyAsync(l => l.RunId == run.Id, ct))
                await digests.BuildAsync(run, store: true, ct);
            if (!await db.Digests.AnyAsync(d => d.RunId == run.Id && d.Version == RunDigest.CurrentVersion, ct)) break; // not stored (a full disk): keep the samples
            await using var transaction = await db.Database.BeginTransactionAsync(ct);
            await db.SampleBlocks.Where(b => b.RunId == run.Id).ExecuteDeleteAsync(ct);
            await db.Samples.Where(s => s.RunId == run.Id).ExecuteDeleteAsync(ct);
            await db.Runs.Where(r => r.Id == run.Id).ExecuteUpdateAsync(set => set.SetProperty(r => r.SamplesDroppedUtcMs, now.ToUnixTimeMilliseconds()), ct);
            await transaction.CommitAsync(ct);
            dropped++;
        }
        return dropped;
    }
}
