using BenchDashboard.Core.Calibration;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Calibration;

public class AaDesignTests
{
    static AaExperiment Judged(VerdictCall call, double lower, double upper, NoiseModel noise = NoiseModel.Interleaved) =>
        new(["1/A", "1/B"], AaOutcome.Judged, new Verdict("1/B", "median", new QuantileChange(500, 1_000_000, 1_000_000, (lower + upper) / 2, lower, upper, 0.95, 2000, 1), noise, call, "", ""));

    [Fact]
    public void FalseCallsAreFasterOrSlowerAmongJudgedExperimentsOnly()
    {
        var design = AaDesign.From([
            Judged(VerdictCall.Slower, 0.01, 0.03), Judged(VerdictCall.Equivalent, -0.01, 0.01), Judged(VerdictCall.NoClearDifference, -0.03, 0.02),
            Judged(VerdictCall.CannotTell, -0.2, 0.2, NoiseModel.RequestsOnly), new(["2", "3"], AaOutcome.Pending, null), new(["4", "5"], AaOutcome.NotCompleted, null),
        ]);

        Assert.Equal((4, 1, 1, 1, 1, 1, 1), (design.Judged, design.FalseCalls, design.Equivalent, design.NoClearDifference, design.CannotTell, design.Pending, design.NotCompleted));
        Assert.Equal(0.25, design.FalseCallRate);
    }

    [Fact]
    public void TheDetectableChangeIsTheMiddleHalfWidthInStandardErrorsForEightyPercentPower()
    {
        // Half-widths 1 %, 2 %, 5 % (the "cannot tell" one, which leaves run-to-run noise out, does not count): the middle is 2 %.
        var design = AaDesign.From([Judged(VerdictCall.Equivalent, -0.01, 0.01), Judged(VerdictCall.NoClearDifference, -0.03, 0.01),
            Judged(VerdictCall.NoClearDifference, -0.04, 0.06), Judged(VerdictCall.CannotTell, -0.5, 0.5, NoiseModel.RequestsOnly)]);

        // (1.959964 + 0.841621) / 1.959964 × 2 %
        Assert.Equal(0.02 * (1.959964 + 0.841621) / 1.959964, design.DetectableChange!.Value, 6);
    }

    [Fact]
    public void NothingJudgedYetHasNoRates()
    {
        var design = AaDesign.From([new(["1/A", "1/B"], AaOutcome.Pending, null)]);
        Assert.Null(design.FalseCallRate);
        Assert.Null(design.DetectableChange);
    }
}
