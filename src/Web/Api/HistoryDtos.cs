using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Api;

/// <summary>
/// One percentile of a change: the runs' typical figure before and after, the change as a fraction (0.21 = 21 %
/// slower) with the runs' interval, the stored requests' interval when it was computed, and what was called.
/// </summary>
public sealed record ChangeMetricDto(string Metric, double BeforeMs, double AfterMs, double Change, double Lower, double Upper,
    double? SamplesLower, double? SamplesUpper, ChangeDirection Call)
{
    public static ChangeMetricDto From(MetricChange m) => new(m.Metric, Ms.Of(m.BeforeNs), Ms.Of(m.AfterNs), m.Change, m.Lower, m.Upper, m.SamplesLower, m.SamplesUpper, m.Call);
}

/// <summary>
/// A change in a benchmark's history: confirmed (by <c>confirmedByRunId</c>, with its figures) or pending (a possible
/// change at the end, <c>waitingFor</c> more runs before it can be confirmed), in words and figures.
/// </summary>
public sealed record ChangeDto(
    string Status, ChangeDirection Direction, long SinceRunId, long? ConfirmedByRunId, int? WaitingFor, string Summary,
    double? ConfidenceLevel, double? SamplesConfidenceLevel, double? MarginPercent, IReadOnlyList<ChangeMetricDto> Metrics,
    IReadOnlyList<long> BeforeRunIds, IReadOnlyList<long> AfterRunIds, string? CompareUrl)
{
    public static ChangeDto From(ConfirmedChange c) => new(
        "confirmed", c.Evidence.Call, c.SinceRunId, c.ConfirmedByRunId, null, ChangeWords.Confirmed(c), c.Evidence.ConfidenceLevel, c.Evidence.SamplesConfidenceLevel,
        c.Evidence.Margin * 100, c.Evidence.Metrics.Select(ChangeMetricDto.From).ToList(), c.BeforeRunIds, c.AfterRunIds, ChangeLinks.Compare(c));

    public static ChangeDto From(PendingChange p) => new(
        "pending", p.Direction, p.SinceRunId, null, p.WaitingFor, ChangeWords.Pending(p), null, null, null, [], [], [], null);
}

/// <summary>
/// How a completed run stood in its benchmark's history when it was judged: <c>flagged</c> when it confirmed a
/// regression (its outcome is amber, its benchmark's webhooks get a "regression" notice, benchdash exits 1); the
/// changes it confirmed, or a possible change pending; the first run of its level. Null for a run not judged yet.
/// </summary>
public sealed record RegressionDto(bool Flagged, string Summary, long LevelSinceRunId, bool ParameterChange, IReadOnlyList<ChangeDto> Changes, ChangeDto? Pending, string? NotJudged)
{
    public static RegressionDto? From(HistoryJudgement? j) => j is null ? null
        : new(j.Flagged, ChangeWords.Of(j), j.LevelSinceRunId, j.ParameterChange, j.Confirmed.Select(ChangeDto.From).ToList(),
            j.Pending is { } p ? ChangeDto.From(p) : null, j.NotJudged);
}

/// <summary>One completed run of a benchmark on its trend: key figures, its place in the history and pass/fail result.</summary>
/// <param name="RequestsPerSecond">Attempted per second, failed ones included.</param>
/// <param name="SucceededPerSecond">The throughput: successful operations per second.</param>
public sealed record TrendPointDto(long RunId, DateTimeOffset QueuedUtc, int Count, int Errors, double RequestsPerSecond, double SucceededPerSecond,
    double? MedianMs, double? P95Ms, double? P99Ms, RegressionDto? Regression, ThresholdResult? Thresholds,
    bool? ThresholdsRecorded, ThresholdResult? ThresholdsToday, string? ThresholdsRemark)
{
    public static TrendPointDto From(HistoryPoint p) => new(
        p.Run.Id, DateTimeOffset.FromUnixTimeMilliseconds(p.Run.QueuedUtcMs), p.Summary.Count, p.Summary.Errors, p.Summary.RequestsPerSecond, p.Summary.Throughput,
        p.Summary.MedianNs / 1e6, p.Summary.P95Ns / 1e6, p.Summary.P99Ns / 1e6, RegressionDto.From(p.History), p.Thresholds,
        p.Limits?.Recorded, p.Limits?.Today, p.Limits?.Remark);
}

public sealed record TrendDto(int BenchmarkId, string Name, Thresholds Thresholds, IReadOnlyList<TrendPointDto> Runs);

/// <summary>The change rule a benchmark's history is judged by.</summary>
public sealed record ChangeRuleDto(double ChangeMarginPercent, int ConfirmRuns, double ConfidenceLevel, double SamplesConfidenceLevel);

/// <summary>A level between changes: its runs and the median of their figures.</summary>
public sealed record SegmentDto(long FromRunId, long ToRunId, int Runs, double MedianMs, double P95Ms, double P99Ms, bool AfterParameterChange)
{
    public static SegmentDto From(HistorySegment s) =>
        new(s.FromRunId, s.ToRunId, s.Runs, Ms.Of(s.MedianNs), Ms.Of(s.P95Ns), Ms.Of(s.P99Ns), s.AfterParameterChange);
}

/// <summary>
/// A benchmark's changes over its last <c>runs</c> completed runs: confirmed ones (newest first), a possible one pending
/// at the end, the levels between them, outlying runs and runs whose parameters changed.
/// </summary>
public sealed record ChangesDto(int BenchmarkId, string Name, ChangeRuleDto Rule, int Runs, IReadOnlyList<ChangeDto> Changes, ChangeDto? Pending,
    IReadOnlyList<SegmentDto> Segments, IReadOnlyList<HistoryOutlier> Outliers, IReadOnlyList<long> ParameterChanges)
{
    public static ChangesDto From(Benchmark benchmark, Thresholds thresholds, int runs, HistoryView view) => new(
        benchmark.Id, benchmark.Name,
        new ChangeRuleDto(thresholds.ChangeMarginPercent, thresholds.ConfirmRuns, ChangeSettings.Of(thresholds).ConfidenceLevel, ChangeTest.SamplesConfidenceLevel),
        runs, view.Changes.AsEnumerable().Reverse().Select(ChangeDto.From).ToList(), view.Pending is { } p ? ChangeDto.From(p) : null,
        view.Segments.Select(SegmentDto.From).ToList(), view.Outliers, view.ParameterChanges);
}
