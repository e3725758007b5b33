using System.Globalization;
using BenchDashboard.Core;
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

    /// <summary>What a run measured, in one line: the request for HTTP, backend and phases for a cache run.</summary>
    public static string Target(Run run)
    {
        switch (run.Kind)
        {
            case BenchmarkKind.Http:
                var http = Json.Deserialize<HttpParameters>(run.ParametersJson);
                return $"{http.Method} {http.Url}";
            case BenchmarkKind.Cache:
                var cache = Json.Deserialize<CacheParameters>(run.ParametersJson);
                var backend = cache.Backend == CacheBackend.Redis ? $"redis '{cache.Connection}'" : "memory";
                return $"cache {backend}: {string.Join(", ", cache.Phases.Select(p => p.Name()))}";
            default:
                return run.Kind.ToString();
        }
    }

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
