namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// Optional pass/fail limits of a benchmark (a CI pipeline can gate on them through the API) and the
/// regression rule: a run whose median or p95 is more than <see cref="RegressionPercent"/> above the median
/// of the previous <see cref="TrailingRuns"/> completed runs' figures is flagged. Null limits are not checked.
/// </summary>
public sealed record Thresholds
{
    public double? MaxMedianMs { get; init; }
    public double? MaxP95Ms { get; init; }
    public double? MaxP99Ms { get; init; }
    public double? MaxErrorPercent { get; init; }
    public double? MinRequestsPerSecond { get; init; }

    /// <summary>What the latency limits rank in an open-model run: corrected latency (the default) or service time.</summary>
    public Statistics.LatencyBasis Latency { get; init; } = Statistics.LatencyBasis.Corrected;

    public double RegressionPercent { get; init; } = 10;
    public int TrailingRuns { get; init; } = 10;

    public static readonly Thresholds None = new();

    [System.Text.Json.Serialization.JsonIgnore]
    public bool HasLimits => MaxMedianMs is not null || MaxP95Ms is not null || MaxP99Ms is not null || MaxErrorPercent is not null || MinRequestsPerSecond is not null;

    public Dictionary<string, string[]> Validate()
    {
        var errors = new Dictionary<string, string[]>();
        void Positive(string field, double? value)
        {
            if (value is { } v && (!double.IsFinite(v) || v <= 0)) errors[field] = ["Enter a positive number or leave it empty."];
        }
        Positive("maxMedianMs", MaxMedianMs);
        Positive("maxP95Ms", MaxP95Ms);
        Positive("maxP99Ms", MaxP99Ms);
        Positive("minRequestsPerSecond", MinRequestsPerSecond);
        if (MaxErrorPercent is { } e && (!double.IsFinite(e) || e < 0 || e > 100)) errors["maxErrorPercent"] = ["Enter a percentage from 0 to 100 or leave it empty."];
        if (!double.IsFinite(RegressionPercent) || RegressionPercent <= 0 || RegressionPercent > 1000) errors["regressionPercent"] = ["Enter a percentage above 0 (and at most 1,000)."];
        if (!Enum.IsDefined(Latency)) errors["latency"] = ["The latency limits apply to \"corrected\" latency or \"service\" time."];
        if (TrailingRuns is < 3 or > 100) errors["trailingRuns"] = ["Compare with 3 to 100 previous runs."];
        return errors;
    }
}
