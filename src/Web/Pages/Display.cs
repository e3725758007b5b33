using System.Globalization;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages;

/// <summary>
/// Formatting shared by the pages. Durations are milliseconds with three decimals (microseconds) from 1 ms
/// up, five below (10 ns): an in-process cache read takes a few hundred nanoseconds, and "0.000 ms" would
/// say it took nothing.
/// </summary>
public static class Display
{
    public static string Ms(long ns) => Ms((double)ns);
    public static string Ms(double ns) => (ns / 1e6).ToString(Math.Abs(ns) >= 1e6 ? "N3" : "N5", CultureInfo.InvariantCulture);
    public static string Seconds(long ns) => (ns / 1e9).ToString("N3", CultureInfo.InvariantCulture) + " s";
    public static string Rate(double perSecond) => perSecond.ToString("N1", CultureInfo.InvariantCulture);
    public static string KiB(double bytes) => (bytes / 1024).ToString("N1", CultureInfo.InvariantCulture) + " KiB";

    public static string Utc(long? unixMs) =>
        unixMs is { } ms ? DateTimeOffset.FromUnixTimeMilliseconds(ms).UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) : "";

    public static string Duration(Run run) =>
        run.StartedUtcMs is { } start ? (((run.EndedUtcMs ?? DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()) - start) / 1000.0).ToString("N1", CultureInfo.InvariantCulture) + " s" : "";

    /// <summary>"p95 ≤ 200 ms, errors ≤ 1 %": the limits a benchmark has set.</summary>
    public static string Limits(Thresholds t)
    {
        var parts = new List<string>();
        string N(double v) => v.ToString("0.###", CultureInfo.InvariantCulture);
        if (t.MaxMedianMs is { } m) parts.Add($"median ≤ {N(m)} ms");
        if (t.MaxP95Ms is { } p95) parts.Add($"p95 ≤ {N(p95)} ms");
        if (t.MaxP99Ms is { } p99) parts.Add($"p99 ≤ {N(p99)} ms");
        if (t.MaxErrorPercent is { } e) parts.Add($"errors ≤ {N(e)} %");
        if (t.MinRequestsPerSecond is { } r) parts.Add($"requests/s ≥ {N(r)}");
        return string.Join(", ", parts);
    }

    /// <summary>"regression: median +14.2 %" or "–" (not flagged) or "no baseline yet".</summary>
    public static string Regression(RegressionCheck? r) => r switch
    {
        null => "no baseline yet",
        { IsFlagged: true } => "⚠ regression: " + string.Join(", ",
            new[] { r.MedianRegressed ? $"median {Signed(r.MedianChange)}" : null, r.P95Regressed ? $"p95 {Signed(r.P95Change)}" : null }.OfType<string>()),
        _ => $"ok (median {Signed(r.MedianChange)}, p95 {Signed(r.P95Change)})",
    };

    public static string Verdict(ThresholdResult? t) => t switch
    {
        null => "–",
        { Passed: true } => "✓ passed",
        _ => "✗ failed: " + string.Join(", ", t.Checks.Where(c => !c.Passed).Select(c => $"{c.Metric} {(c.Actual is { } a ? a.ToString("0.###", CultureInfo.InvariantCulture) : "none")} vs {c.Limit.ToString("0.###", CultureInfo.InvariantCulture)}")),
    };

    static string Signed(double fraction) => (fraction >= 0 ? "+" : "−") + Math.Abs(fraction * 100).ToString("0.0", CultureInfo.InvariantCulture) + " %";

    public static string WindowLength(int seconds) =>
        seconds % 3600 == 0 ? $"{seconds / 3600} h" : seconds % 60 == 0 ? $"{seconds / 60} min" : $"{seconds} s";

    public static string MetricName(ComparedMetric metric) => metric switch
    {
        ComparedMetric.TotalTime => "Total time",
        ComparedMetric.Mean => "Mean",
        ComparedMetric.Median => "Median",
        ComparedMetric.P90 => "p90",
        ComparedMetric.P95 => "p95",
        ComparedMetric.P99 => "p99",
        ComparedMetric.Max => "Slowest",
        ComparedMetric.Throughput => "Per second",
        ComparedMetric.Errors => "Errors",
        _ => metric.ToString(),
    };

    public static string Percent(int part, int whole) =>
        whole == 0 ? "" : (100.0 * part / whole).ToString("N1", CultureInfo.InvariantCulture) + " %";
}
