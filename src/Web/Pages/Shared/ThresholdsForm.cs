using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Shared;

/// <summary>A benchmark's pass/fail limits and change rule as the editor binds them (empty = not checked).</summary>
public sealed class ThresholdsForm
{
    public double? MaxMedianMs { get; set; }
    public double? MaxP95Ms { get; set; }
    public double? MaxP99Ms { get; set; }
    public LatencyBasis Latency { get; set; } = LatencyBasis.Corrected;
    public double? MaxErrorPercent { get; set; }
    public double? MinRequestsPerSecond { get; set; }
    public double ChangeMarginPercent { get; set; } = Core.Statistics.Changes.ChangeSettings.DefaultMargin * 100;
    public int ConfirmRuns { get; set; } = Core.Statistics.Changes.ChangeSettings.DefaultConfirmRuns;

    /// <summary>
    /// The name of the kind form's load-model choice ("Http.Model"), null for a kind without one; not bound. The
    /// latency basis matters to open-model runs alone, so it shows only while the open model is chosen.
    /// </summary>
    [Microsoft.AspNetCore.Mvc.ModelBinding.BindNever] public string? LoadModelField { get; set; }

    /// <summary>Whether the form as filled chooses the open model; not bound.</summary>
    [Microsoft.AspNetCore.Mvc.ModelBinding.BindNever] public bool OpenModel { get; set; }

    /// <summary>What the limits' fields show for <paramref name="form"/>, a kind's form under <paramref name="prefix"/>.</summary>
    public void Describe(Kinds.IKindForm form, string prefix)
    {
        LoadModelField = form is Kinds.ILoadModelForm ? $"{prefix}.{nameof(Kinds.ILoadModelForm.Model)}" : null;
        OpenModel = form is Kinds.ILoadModelForm { Model: "open" };
    }

    public Thresholds ToThresholds() => new()
    {
        MaxMedianMs = MaxMedianMs, MaxP95Ms = MaxP95Ms, MaxP99Ms = MaxP99Ms, Latency = Latency, MaxErrorPercent = MaxErrorPercent,
        MinRequestsPerSecond = MinRequestsPerSecond, ChangeMarginPercent = ChangeMarginPercent, ConfirmRuns = ConfirmRuns,
    };

    public static ThresholdsForm From(Thresholds t) => new()
    {
        MaxMedianMs = t.MaxMedianMs, MaxP95Ms = t.MaxP95Ms, MaxP99Ms = t.MaxP99Ms, Latency = t.Latency, MaxErrorPercent = t.MaxErrorPercent,
        MinRequestsPerSecond = t.MinRequestsPerSecond, ChangeMarginPercent = t.ChangeMarginPercent, ConfirmRuns = t.ConfirmRuns,
    };
}
