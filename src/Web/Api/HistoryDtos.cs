using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Api;

/// <summary>Changes are fractions (0.12 = 12 % above the trailing baseline); flagged when either exceeds thresholdPercent.</summary>
public sealed record RegressionDto(bool Flagged, int BaselineRuns, double BaselineMedianMs, double BaselineP95Ms, double MedianChange, double P95Change, double ThresholdPercent)
{
    public static RegressionDto? From(RegressionCheck? r) => r is null ? null
        : new(r.IsFlagged, r.BaselineRuns, Ms.Of(r.BaselineMedianNs), Ms.Of(r.BaselineP95Ns), r.MedianChange, r.P95Change, r.ThresholdPercent);
}

/// <summary>One completed run of a benchmark on its trend: key figures, regression flag and pass/fail result.</summary>
/// <param name="RequestsPerSecond">Attempted per second, failed ones included.</param>
/// <param name="SucceededPerSecond">The throughput: successful operations per second.</param>
public sealed record TrendPointDto(long RunId, DateTimeOffset QueuedUtc, int Count, int Errors, double RequestsPerSecond, double SucceededPerSecond,
    double? MedianMs, double? P95Ms, double? P99Ms, RegressionDto? Regression, ThresholdResult? Thresholds)
{
    public static TrendPointDto From(HistoryPoint p) => new(
        p.Run.Id, DateTimeOffset.FromUnixTimeMilliseconds(p.Run.QueuedUtcMs), p.Summary.Count, p.Summary.Errors, p.Summary.RequestsPerSecond, p.Summary.Throughput,
        p.Summary.MedianNs / 1e6, p.Summary.P95Ns / 1e6, p.Summary.P99Ns / 1e6, RegressionDto.From(p.Regression), p.Thresholds);
}

public sealed record TrendDto(int BenchmarkId, string Name, Thresholds Thresholds, IReadOnlyList<TrendPointDto> Runs);
