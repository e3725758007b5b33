using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Scheduling;

/// <summary>
/// Turns due cron slots of enabled benchmarks (read in each one's time zone) into queued runs. Missed slots (the app was down) are not
/// back-filled: at most one run is queued per check, for the latest slot. The slot is recorded with a
/// conditional UPDATE first, so two runner processes never queue the same slot twice.
/// </summary>
public sealed class CronScheduler(IServiceScopeFactory scopes, TimeProvider time, ILogger<CronScheduler> logger)
{
    /// <summary>Benchmarks whose schedule this machine cannot read, said once each rather than every check.</summary>
    readonly HashSet<(long Id, string Cron, string Zone)> unreadable = [];

    public async Task<int> EnqueueDueAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var queue = scope.ServiceProvider.GetRequiredService<RunQueue>();
        var now = time.GetUtcNow();
        var queued = 0;

        var scheduled = await db.Benchmarks.AsNoTracking().Where(b => b.Enabled && b.CronSchedule != null).ToListAsync(ct);
        foreach (var benchmark in scheduled)
        {
            if (Unreadable(benchmark) is { } reason)
            {
                if (unreadable.Add((benchmark.Id, benchmark.CronSchedule!, benchmark.TimeZone)))
                    logger.LogWarning("Scheduled benchmark {Name} never fires on this machine: {Reason}", benchmark.Name, reason);
                continue;
            }
            var from = DateTimeOffset.FromUnixTimeMilliseconds(benchmark.LastScheduledUtcMs ?? benchmark.CreatedUtcMs);
            if (CronSchedules.NextAfter(benchmark.CronSchedule!, benchmark.TimeZone, from) is not { } due || due > now) continue;

            var nowMs = now.ToUnixTimeMilliseconds();
            var last = benchmark.LastScheduledUtcMs;
            var won = await db.Benchmarks.Where(b => b.Id == benchmark.Id && b.LastScheduledUtcMs == last)
                .ExecuteUpdateAsync(set => set.SetProperty(b => b.LastScheduledUtcMs, nowMs), ct);
            if (won != 1) continue;

            var result = await queue.EnqueueAsync(benchmark, ct);
            if (result.IsValid) queued++;
            else logger.LogWarning("Scheduled benchmark {Name} was not queued: {Errors}", benchmark.Name,
                string.Join(" ", result.Errors.SelectMany(e => e.Value)));
        }
        return queued;
    }

    /// <summary>
    /// Why the schedule cannot be read here, or null: the editor refused both faults, so this is a file edited by
    /// hand or a runner machine without the zone in its time-zone database.
    /// </summary>
    static string? Unreadable(Benchmark benchmark) =>
        CronSchedules.Parse(benchmark.CronSchedule!, out var error) is null ? error
        : CronSchedules.FindZone(benchmark.TimeZone) is null ? $"the time zone '{benchmark.TimeZone}' is not in this machine's time-zone database"
        : null;
}
