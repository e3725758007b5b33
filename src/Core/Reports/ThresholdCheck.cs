using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Reports;

/// <summary>One limit applied to one run: "p95 ≤ 200 ms: 143.2 ms, passed".</summary>
public sealed record ThresholdCheck(string Metric, double Limit, double? Actual, bool Passed);

/// <summary>All limits of a benchmark applied to one run; a run with no limits set has no verdict (null).</summary>
public sealed record ThresholdResult(bool Passed, IReadOnlyList<ThresholdCheck> Checks)
{
    public static ThresholdResult? Evaluate(Thresholds thresholds, RunSummary summary)
    {
        var checks = new List<ThresholdCheck>();
        void AtMost(string metric, double? limit, double? actual)
        {
            // No answered request has no latency: that fails a latency limit rather than passing it.
            if (limit is { } l) checks.Add(new ThresholdCheck(metric, l, actual, actual is { } a && a <= l));
        }
        var (median, p95, p99) = summary.Of(thresholds.Latency);
        var of = thresholds.Latency == BenchDashboard.Core.Runs.LatencyBasis.Service ? "service" : "";
        string Name(string metric) => of.Length == 0 ? metric : of + char.ToUpperInvariant(metric[0]) + metric[1..];
        AtMost(Name("medianMs"), thresholds.MaxMedianMs, median / 1e6);
        AtMost(Name("p95Ms"), thresholds.MaxP95Ms, p95 / 1e6);
        AtMost(Name("p99Ms"), thresholds.MaxP99Ms, p99 / 1e6);
        AtMost("errorPercent", thresholds.MaxErrorPercent, summary.Count == 0 ? null : summary.ErrorPercent); // no request is no pass
        if (thresholds.MinRequestsPerSecond is { } min)
            checks.Add(new ThresholdCheck("requestsPerSecond", min, summary.Throughput, summary.Throughput >= min)); // successful ones
        return checks.Count == 0 ? null : new ThresholdResult(checks.All(c => c.Passed), checks);
    }

    /// <summary>A run that did not complete fails its benchmark's limits outright: a CI gate must not read it as a pass.</summary>
    public static ThresholdResult NotCompleted(RunStatus status) =>
        new(false, [new ThresholdCheck($"completed (was {status.ToApiName()})", 1, 0, false)]);
}
