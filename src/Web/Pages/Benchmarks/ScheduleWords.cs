using System.Globalization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>A benchmark's schedule as the benchmarks list and the editor's confirmation say it: in words, with its next and last run in its zone.</summary>
public static class ScheduleWords
{
    /// <summary>"every day at 02:30 (Europe/Berlin)", or the expression when it has no words; "on demand" without a schedule.</summary>
    public static string Rule(Benchmark b) => b.CronSchedule is not { } cron ? "on demand"
        : $"{CronWords.Describe(cron) ?? cron} ({b.TimeZone})";

    /// <summary>"2026-11-28 02:30 Europe/Berlin (01:30 UTC)": a moment in the schedule's zone, and in UTC when that differs.</summary>
    public static string At(DateTimeOffset utc, TimeZoneInfo? zone)
    {
        if (zone is null || zone.BaseUtcOffset == TimeSpan.Zero && !zone.SupportsDaylightSavingTime)
            return utc.UtcDateTime.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture) + " UTC";
        var local = TimeZoneInfo.ConvertTime(utc, zone);
        return local.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture) + $" {zone.Id} ({utc.UtcDateTime.ToString("HH:mm", CultureInfo.InvariantCulture)} UTC)";
    }

    public static string Next(Benchmark b, ScheduleTimes t) =>
        b.CronSchedule is null ? "–"
        : !b.Enabled ? "none while disabled"
        : t.Next is not { } next ? "never (the schedule or its zone cannot be read here)"
        : t.Overdue ? $"due since {At(next, t.Zone)}: queued at the runner's next check"
        : At(next, t.Zone);

    /// <summary>When a run last started (or was queued, if it has not started), in the schedule's zone; "none yet" without one.</summary>
    public static string Last(Core.Runs.Run? run, TimeZoneInfo? zone) =>
        run is null ? "none yet" : At(DateTimeOffset.FromUnixTimeMilliseconds(run.StartedUtcMs ?? run.QueuedUtcMs), zone);

    /// <summary>The editor's confirmation after a save: what was saved and when it runs.</summary>
    public static string Saved(Benchmark b, DateTimeOffset nowUtc)
    {
        var t = ScheduleTimes.Of(b, nowUtc);
        return b.CronSchedule is null ? $"Saved '{b.Name}': it runs on demand (Run now, the API or benchdash)."
            : !b.Enabled ? $"Saved '{b.Name}', scheduled {Rule(b)}; it is disabled, so nothing runs until it is enabled."
            : $"Saved '{b.Name}', scheduled {Rule(b)}; next run {Next(b, t)}.";
    }
}
