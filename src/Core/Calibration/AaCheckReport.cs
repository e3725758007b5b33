using BenchDashboard.Core.Comparisons;
using MathNet.Numerics.Distributions;

namespace BenchDashboard.Core.Calibration;

public enum AaOutcome { Pending, NotCompleted, Judged }

/// <summary>One A/A experiment: the compare keys (baseline first) and, once judged, the median verdict of the second against the first.</summary>
public sealed record AaExperiment(IReadOnlyList<string> Keys, AaOutcome Outcome, Verdict? Median)
{
    /// <summary>Called faster or slower: with identical settings on both sides, a false call.</summary>
    public bool FalseCall => Median?.Call is VerdictCall.Faster or VerdictCall.Slower;
}

/// <summary>
/// What one design (interleaved variants, or separate runs) showed over the check's experiments.
/// <see cref="FalseCallRate"/> is false calls ÷ judged experiments: a setup whose verdicts can be trusted
/// stays near the 95 % intervals' 5 %. <see cref="DetectableChange"/> is the smallest true change of the
/// median this design would call four times out of five: (z<sub>0.975</sub> + z<sub>0.8</sub>) standard errors,
/// each the half-width of a verdict's 95 % interval ÷ z<sub>0.975</sub>, taking the median experiment. Verdicts
/// that leave run-to-run variation out ("cannot tell") say nothing about that, and are left out of it.
/// </summary>
public sealed record AaDesign(IReadOnlyList<AaExperiment> Experiments, int Judged, int FalseCalls, int Equivalent, int NoClearDifference, int CannotTell, double? FalseCallRate, double? DetectableChange)
{
    static readonly double Z975 = Normal.InvCDF(0, 1, 0.975);
    static readonly double Z80 = Normal.InvCDF(0, 1, 0.8);

    public int Pending => Experiments.Count(e => e.Outcome == AaOutcome.Pending);
    public int NotCompleted => Experiments.Count(e => e.Outcome == AaOutcome.NotCompleted);

    public static AaDesign From(IReadOnlyList<AaExperiment> experiments)
    {
        var judged = experiments.Where(e => e.Outcome == AaOutcome.Judged).Select(e => e.Median!).ToList();
        var halfWidths = judged.Where(v => v.Call != VerdictCall.CannotTell).Select(v => (v.Change.Upper - v.Change.Lower) / 2).Order().ToList();
        double? detectable = halfWidths.Count == 0 ? null : Median(halfWidths) / Z975 * (Z975 + Z80);
        var falseCalls = experiments.Count(e => e.FalseCall);
        return new AaDesign(experiments, judged.Count, falseCalls,
            judged.Count(v => v.Call == VerdictCall.Equivalent), judged.Count(v => v.Call == VerdictCall.NoClearDifference),
            judged.Count(v => v.Call == VerdictCall.CannotTell), judged.Count == 0 ? null : (double)falseCalls / judged.Count, detectable);
    }

    static double Median(List<double> sorted) =>
        sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[sorted.Count / 2 - 1] + sorted[sorted.Count / 2]) / 2;
}

/// <summary>An A/A check's progress and, per design, what its experiments showed; <see cref="Interleaved"/> is null for a kind without variants.</summary>
public sealed record AaCheckReport(AaCheck Check, int Runs, int RunsEnded, AaDesign? Interleaved, AaDesign Separate)
{
    public bool Finished => RunsEnded == Runs;
}
