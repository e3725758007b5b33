namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// Optional pass/fail limits of a benchmark, which judge each run alone (a CI pipeline can gate on them through
/// the API), and the change rule over its history (<see cref="Statistics.Changes.ChangeRule"/>): a change smaller
/// than <see cref="ChangeMarginPercent"/> is not called, and one is confirmed by its <see cref="ConfirmRuns"/>-th run
/// at the new level. Null limits are not checked.
/// </summary>
public sealed record Thresholds
{
    public const double DefaultChangeMarginPercent = 5;
    public const int DefaultConfirmRuns = 3;

    public double? MaxMedianMs { get; init; }
    public double? MaxP95Ms { get; init; }
    public double? MaxP99Ms { get; init; }
    public double? MaxErrorPercent { get; init; }
    public double? MinRequestsPerSecond { get; init; }

    /// <summary>What the latency limits rank in an open-model run: corrected latency (the default) or service time.</summary>
    public Runs.LatencyBasis Latency { get; init; } = Runs.LatencyBasis.Corrected;

    /// <summary>The practical margin: a change is called only when its whole interval lies beyond ± this.</summary>
    public double ChangeMarginPercent { get; init; } = DefaultChangeMarginPercent;

    /// <summary>A change is confirmed (flagged, announced) by the run that makes this many at the new level.</summary>
    public int ConfirmRuns { get; init; } = DefaultConfirmRuns;

    // The rule before change points flagged a run 10 % above the median of the previous 10; its two settings are
    // read so that benchmarks exported or saved by earlier versions still import, and are neither used nor written.
    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWriting)]
    public double? RegressionPercent { get; init; }

    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWriting)]
    public int? TrailingRuns { get; init; }

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
        if (!double.IsFinite(ChangeMarginPercent) || ChangeMarginPercent <= 0 || ChangeMarginPercent > 100) errors["changeMarginPercent"] = ["Enter a percentage above 0 (and at most 100)."];
        if (!Enum.IsDefined(Latency)) errors["latency"] = ["The latency limits apply to \"corrected\" latency or \"service\" time."];
        if (ConfirmRuns is < 2 or > 20) errors["confirmRuns"] = ["Confirm a change with 2 to 20 runs."];
        return errors;
    }
}
