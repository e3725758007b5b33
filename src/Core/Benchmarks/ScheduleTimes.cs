namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// When a benchmark's schedule runs next, by the scheduler's own rule: the first slot after the last one it queued
/// (or after the schedule was set). A slot already past is queued at the runner's next check.
/// </summary>
/// <param name="Next">The next slot, in UTC; null when disabled, on demand, unreadable or never again.</param>
/// <param name="Overdue">The next slot is already past: the runner queues it at its next check (it was down, or is about to).</param>
/// <param name="Zone">The zone the schedule is read in; null when this machine does not know it.</param>
public sealed record ScheduleTimes(DateTimeOffset? Next, bool Overdue, TimeZoneInfo? Zone)
{
    public static ScheduleTimes Of(Benchmark benchmark, DateTimeOffset nowUtc)
    {
        var zone = CronSchedules.FindZone(benchmark.TimeZone);
        if (benchmark.CronSchedule is not { } cron || !benchmark.Enabled) return new(null, false, zone);
        var from = DateTimeOffset.FromUnixTimeMilliseconds(benchmark.LastScheduledUtcMs ?? benchmark.CreatedUtcMs);
        var next = CronSchedules.NextAfter(cron, benchmark.TimeZone, from);
        return new(next, next <= nowUtc, zone);
    }
}
