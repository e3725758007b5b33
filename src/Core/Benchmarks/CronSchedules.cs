using Cronos;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// Cron schedules read by Cronos in a benchmark's time zone: 5 fields (minute hour day month weekday) or 6 with
/// seconds first. On a spring-forward day a time that does not exist runs once, when the clock jumps (02:30 at
/// 03:00); on a fall-back day a time that happens twice runs once, the first time.
/// </summary>
public static class CronSchedules
{
    public const string DefaultTimeZone = "UTC";

    /// <summary>The expression, or null with Cronos's reason (or ours, for a wrong number of fields).</summary>
    public static CronExpression? Parse(string expression, out string? error)
    {
        error = null;
        var fields = expression.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries).Length;
        var format = fields switch
        {
            5 => CronFormat.Standard,
            6 => CronFormat.IncludeSeconds,
            1 when expression.TrimStart().StartsWith('@') => CronFormat.Standard, // @daily, @hourly …
            _ => (CronFormat?)null,
        };
        if (format is null)
        {
            error = $"Enter 5 fields (minute hour day month weekday) or 6 with seconds first, e.g. */15 * * * *; this has {fields}.";
            return null;
        }
        CronExpression cron;
        try
        {
            cron = CronExpression.Parse(expression, format.Value);
        }
        catch (CronFormatException ex)
        {
            error = ex.Message;
            return null;
        }
        if (format == CronFormat.IncludeSeconds && FiresTwiceInAMinute(cron))
        {
            error = "Runs are scheduled at most once a minute: give the seconds field one value (e.g. 30 0 2 * * * for 02:00:30).";
            return null;
        }
        return cron;
    }

    /// <summary>
    /// Whether the seconds field holds more than one value. From the start of a minute, the first slot is the
    /// first matching minute at its smallest second, so the next slot falls in that same minute exactly when the
    /// field has another value; read in UTC, where no clock change moves a slot.
    /// </summary>
    static bool FiresTwiceInAMinute(CronExpression cron)
    {
        var minuteStart = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        if (cron.GetNextOccurrence(minuteStart, inclusive: true) is not { } first) return false;
        return cron.GetNextOccurrence(first) is { } next && next - first < TimeSpan.FromMinutes(1);
    }

    /// <summary>The zone for an IANA name ("Europe/Berlin", "UTC"), or null: a Windows name is refused, as it would not travel.</summary>
    public static TimeZoneInfo? FindZone(string? name) =>
        !string.IsNullOrWhiteSpace(name) && name.Length <= 64 && TimeZoneInfo.TryFindSystemTimeZoneById(name.Trim(), out var zone) && zone.HasIanaId ? zone : null;

    /// <summary>The first slot after <paramref name="afterUtc"/>, in UTC; null if the schedule or zone cannot be read, or it never fires again.</summary>
    public static DateTimeOffset? NextAfter(string expression, string timeZone, DateTimeOffset afterUtc)
    {
        if (Parse(expression, out _) is not { } cron || FindZone(timeZone) is not { } zone) return null;
        return cron.GetNextOccurrence(afterUtc, zone);
    }
}
