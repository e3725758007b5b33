using System.Globalization;

namespace BenchDashboard.Core.Reports;

/// <summary>
/// A limit's check in plain words for pages, notices and outcomes ("median 5.786 ms, limit 1 ms"); the API keeps the
/// machine names (<see cref="ThresholdCheck.Metric"/>: "medianMs").
/// </summary>
public static class ThresholdWords
{
    /// <summary>"median 5.786 ms, limit 1 ms", "requests per second 80, at least 100", "errors 3 %, limit 1 %".</summary>
    public static string Of(ThresholdCheck check)
    {
        if (check.Metric.StartsWith("completed (was ", StringComparison.Ordinal)) return $"the run did not complete ({check.Metric["completed (was ".Length..^1]})";
        var (name, unit, atLeast) = Name(check.Metric);
        string N(double? v) => v is { } x ? Number(x) + unit : "none";
        return $"{name} {N(check.Actual)}, {(atLeast ? "at least" : "limit")} {N(check.Limit)}";
    }

    /// <summary>The failed checks of a verdict in words, joined.</summary>
    public static string Failures(ThresholdResult result) => string.Join("; ", result.Checks.Where(c => !c.Passed).Select(Of));

    /// <summary>
    /// Three decimals, or four significant digits below 0.001: a limit of 0.000001 ms read as "0 ms" beside a median of
    /// 0.0003 ms as "0 ms" would say the run failed a limit it met.
    /// </summary>
    public static string Number(double v)
    {
        var decimals = v == 0 || !double.IsFinite(v) ? 3 : Math.Clamp(3 - (int)Math.Floor(Math.Log10(Math.Abs(v))), 3, 12);
        return v.ToString("0." + new string('#', decimals), CultureInfo.InvariantCulture);
    }

    static (string Name, string Unit, bool AtLeast) Name(string metric) => metric switch
    {
        "medianMs" => ("median", " ms", false),
        "p95Ms" => ("p95", " ms", false),
        "p99Ms" => ("p99", " ms", false),
        "serviceMedianMs" => ("median service time", " ms", false),
        "serviceP95Ms" => ("p95 service time", " ms", false),
        "serviceP99Ms" => ("p99 service time", " ms", false),
        "errorPercent" => ("errors", " %", false),
        "requestsPerSecond" => ("successful requests per second", "", true),
        _ => (metric, "", false),
    };
}
