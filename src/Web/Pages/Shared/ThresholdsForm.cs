using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>A benchmark's pass/fail limits and regression rule as the editor binds them (empty = not checked).</summary>
public sealed class ThresholdsForm
{
    public double? MaxMedianMs { get; set; }
    public double? MaxP95Ms { get; set; }
    public double? MaxP99Ms { get; set; }
    public LatencyBasis Latency { get; set; } = LatencyBasis.Corrected;
    public double? MaxErrorPercent { get; set; }
    public double? MinRequestsPerSecond { get; set; }
    public double RegressionPercent { get; set; } = 10;
    public int TrailingRuns { get; set; } = 10;

    public Thresholds ToThresholds() => new()
    {
        MaxMedianMs = MaxMedianMs, MaxP95Ms = MaxP95Ms, MaxP99Ms = MaxP99Ms, Latency = Latency, MaxErrorPercent = MaxErrorPercent,
        MinRequestsPerSecond = MinRequestsPerSecond, RegressionPercent = RegressionPercent, TrailingRuns = TrailingRuns,
    };

    public static ThresholdsForm From(Thresholds t) => new()
    {
        MaxMedianMs = t.MaxMedianMs, MaxP95Ms = t.MaxP95Ms, MaxP99Ms = t.MaxP99Ms, Latency = t.Latency, MaxErrorPercent = t.MaxErrorPercent,
        MinRequestsPerSecond = t.MinRequestsPerSecond, RegressionPercent = t.RegressionPercent, TrailingRuns = t.TrailingRuns,
    };
}
