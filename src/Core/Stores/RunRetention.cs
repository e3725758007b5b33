using BenchDashboard.Core.Data;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// Keeps a long-lived dashboard from growing forever (<see cref="RunsOptions.KeepDays"/>, off by default): finished
/// runs that ended longer ago than that are deleted with their samples and digests, one run at a time, and not
/// while a run is being measured (a delete of a million samples holds the database's write lock for seconds).
/// </summary>
public sealed class RunRetention(BenchDbContext db, RunQueue queue, IOptions<RunsOptions> options, TimeProvider time)
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
}
