using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NCrontab;

namespace BenchDashboard.Runner.Scheduling;

/// <summary>
/// Turns due cron slots of enabled benchmarks into queued runs. Missed slots (the app was down) are not
/// back-filled: at most one run is queued per check, for the latest slot. The slot is recorded with a
/// conditional UPDATE first, so two runner processes never queue the same slot twice.
/// </summary>
public sealed class CronScheduler(IServiceScopeFactory scopes, TimeProvider time, ILogger<CronScheduler> logger)
{
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
            var schedule = CrontabSchedule.TryParse(benchmark.CronSchedule);
            if (schedule is null) continue;
            var from = DateTimeOffset.FromUnixTimeMilliseconds(benchmark.LastScheduledUtcMs ?? benchmark.CreatedUtcMs).UtcDateTime;
            if (schedule.GetNextOccurrence(from) > now.UtcDateTime) continue;

            var nowMs = now.ToUnixTimeMilliseconds();
            var won = await db.Database.ExecuteSqlInterpolatedAsync(
                $"UPDATE Benchmarks SET LastScheduledUtcMs = {nowMs} WHERE Id = {benchmark.Id} AND LastScheduledUtcMs IS {benchmark.LastScheduledUtcMs}", ct);
            if (won != 1) continue;

            var result = await queue.EnqueueAsync(benchmark, ct);
            if (result.IsValid) queued++;
            else logger.LogWarning("Scheduled benchmark {Name} was not queued: {Errors}", benchmark.Name,
                string.Join(" ", result.Errors.SelectMany(e => e.Value)));
        }
        return queued;
    }
}
