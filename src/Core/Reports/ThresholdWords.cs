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
        string N(double? v) => v is { } x ? x.ToString("0.###", CultureInfo.InvariantCulture) + unit : "none";
        return $"{name} {N(check.Actual)}, {(atLeast ? "at least" : "limit")} {N(check.Limit)}";
    }

    /// <summary>The failed checks of a verdict in words, joined.</summary>
    public static string Failures(ThresholdResult result) => string.Join("; ", result.Checks.Where(c => !c.Passed).Select(Of));

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
