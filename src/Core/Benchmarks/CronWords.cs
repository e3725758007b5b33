using System.Globalization;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// A cron schedule in words ("every day at 02:30", "every 15 minutes") for the shapes people mostly write;
/// null for the rest, which are shown as the expression alone. The words never replace the expression: they
/// are read from its fields as written, and the next run (<see cref="CronSchedules.NextAfter"/>) is what Cronos says.
/// </summary>
public static class CronWords
{
    static readonly string[] Days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

    static readonly Dictionary<string, string> Macros = new(StringComparer.OrdinalIgnoreCase)
    {
        ["@hourly"] = "every hour, on the hour", ["@daily"] = "every day at 00:00", ["@midnight"] = "every day at 00:00",
        ["@weekly"] = "every Sunday at 00:00", ["@monthly"] = "on the 1st of every month at 00:00",
        ["@yearly"] = "every 1 January at 00:00", ["@annually"] = "every 1 January at 00:00",
    };

    public static string? Describe(string expression)
    {
        if (CronSchedules.Parse(expression, out _) is null) return null;
        var fields = expression.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length == 1) return Macros.GetValueOrDefault(fields[0]);
        var second = "0";
        if (fields.Length == 6) (second, fields) = (fields[0], fields[1..]);
        if (Number(second, 59) is not { } s) return null;
        var (minute, hour, day, month, weekday) = (fields[0], fields[1], fields[2], fields[3], fields[4]);
        if (month != "*") return null;

        if (hour == "*" && day == "*" && weekday == "*" && s == 0)
        {
            if (minute == "*") return "every minute";
            if (Step(minute) is { } every) return $"every {every} minutes";
            if (Number(minute, 59) is { } m) return m == 0 ? "every hour, on the hour" : $"every hour at {m} minutes past";
            return null;
        }
        if (Number(minute, 59) is not { } atMinute) return null;
        if (Step(hour) is { } hours && day == "*" && weekday == "*")
            return $"every {hours} hours from 00:{atMinute:00}" + (s > 0 ? $":{s:00}" : "");
        if (Number(hour, 23) is not { } atHour) return null;
        var time = s > 0 ? $"{atHour:00}:{atMinute:00}:{s:00}" : $"{atHour:00}:{atMinute:00}";

        if (day == "*" && weekday == "*") return $"every day at {time}";
        if (day == "*" && Weekdays(weekday) is { } days) return $"every {days} at {time}";
        if (weekday == "*" && Number(day, 31) is { } d) return $"on the {Ordinal(d)} of every month at {time}";
        return null;
    }

    static int? Number(string field, int max) =>
        int.TryParse(field, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n <= max ? n : null;

    /// <summary>"*/15" → 15; null for anything else.</summary>
    static int? Step(string field) =>
        field.StartsWith("*/", StringComparison.Ordinal) && int.TryParse(field[2..], NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > 1 ? n : null;

    /// <summary>"1" → Monday, "1-5" → weekday (Monday to Friday), "MON" → Monday, "0,6" → Saturday and Sunday; null otherwise.</summary>
    static string? Weekdays(string field)
    {
        if (field is "1-5" or "MON-FRI" or "mon-fri") return "weekday (Monday to Friday)";
        if (field is "0,6" or "6,0" or "SAT,SUN" or "SUN,SAT") return "Saturday and Sunday";
        if (Number(field, 7) is { } n) return Days[n % 7];
        var named = Array.FindIndex(Days, d => d[..3].Equals(field, StringComparison.OrdinalIgnoreCase));
        return named >= 0 ? Days[named] : null;
    }

    static string Ordinal(int n) => n + (n % 100 is 11 or 12 or 13 ? "th" : (n % 10) switch { 1 => "st", 2 => "nd", 3 => "rd", _ => "th" });
}
