using BenchDashboard.Core.Data;
using BenchDashboard.Web.Security;
using Microsoft.AspNetCore.OutputCaching;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Web;

/// <summary>
/// The output-cache policy for what viewers of runs poll (the runs list, a run's API, its live figures): one
/// answer serves every reader of the same kind until what it shows changes, so fifty viewers of a run cost it
/// one answer a heartbeat, not fifty. The key holds the state of the run (or of the runs): its status and last
/// heartbeat, read with one small indexed query, so a run that has just ended, been cancelled or been queued is
/// never answered from before; otherwise an answer lives a second at most. The key also holds the benchmarks'
/// limits, which every view of a run measures it against beside its recorded verdict: a limit saved is seen at once. An identified administrator sees
/// parameters in full and others do not, so each has a copy.
/// </summary>
public static class ViewerCache
{
    public const string Policy = "viewers";

    public static void Build(OutputCachePolicyBuilder policy) =>
        policy.Expire(TimeSpan.FromSeconds(1)).SetVaryByQuery("*")
            .VaryByValue(context => new("reader", AdminGate.IsIdentifiedAdmin(context) ? "administrator" : "other"))
            .VaryByValue(async (context, ct) => new("state", await StateAsync(context, ct)));

    static async ValueTask<string> StateAsync(HttpContext context, CancellationToken ct)
    {
        var db = context.RequestServices.GetRequiredService<BenchDbContext>();
        if (context.Request.RouteValues.TryGetValue("id", out var value) && long.TryParse(value?.ToString(), out var id))
        {
            var run = await db.Runs.AsNoTracking().Where(r => r.Id == id)
                .Select(r => new { r.Status, r.HeartbeatUtcMs, r.EndedUtcMs, Limits = r.Benchmark == null ? null : r.Benchmark.ThresholdsJson }).FirstOrDefaultAsync(ct);
            return run is null ? "none" : $"{run.Status}/{run.HeartbeatUtcMs}/{run.EndedUtcMs}/{Hash(run.Limits)}";
        }
        var runs = await db.Runs.AsNoTracking().GroupBy(_ => 1)
            .Select(g => new { Count = g.Count(), Last = g.Max(r => r.Id), Beat = g.Max(r => r.HeartbeatUtcMs), Ended = g.Max(r => r.EndedUtcMs), Queued = g.Count(r => r.Status == Core.Runs.RunStatus.Queued) })
            .OrderBy(g => g.Last) // one group at most: ordered only so that EF Core does not warn of a First without an order
            .FirstOrDefaultAsync(ct);
        if (runs is null) return "empty";
        var limits = await db.Benchmarks.AsNoTracking().OrderBy(b => b.Id).Select(b => b.ThresholdsJson).ToListAsync(ct);
        return $"{runs.Count}/{runs.Last}/{runs.Beat}/{runs.Ended}/{runs.Queued}/{Hash(string.Join('\n', limits))}";
    }

    // The key's part for the limits: in-process only, so string hashing's per-process seed does not matter.
    static int Hash(string? text) => text?.GetHashCode(StringComparison.Ordinal) ?? 0;
}
