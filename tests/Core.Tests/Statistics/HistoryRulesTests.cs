using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class HistoryRulesTests
{
    static RunSummary Summary(double medianMs, double p95Ms, int errors = 0, double rps = 100) =>
        new(1000, errors, rps, (long)(medianMs * 1e6), (long)(p95Ms * 1e6), (long)(p95Ms * 1.2e6), medianMs * 1e6);

    [Fact]
    public void ARunIsARegressionWhenItsMedianOrP95ExceedsTheTrailingMedianByTheThreshold()
    {
        RunSummary[] previous = [Summary(10, 20), Summary(11, 21), Summary(9, 19), Summary(10, 40)]; // one noisy p95 does not move a median

        var ok = RegressionCheck.Evaluate(Summary(10.9, 21.9), previous, 10)!;
        var slower = RegressionCheck.Evaluate(Summary(11.1, 20), previous, 10)!;
        var tail = RegressionCheck.Evaluate(Summary(10, 22.2), previous, 10)!;

        Assert.Equal((10_000_000L, 20_000_000L), (ok.BaselineMedianNs, ok.BaselineP95Ns)); // nearest-rank medians of 4: the 2nd smallest
        Assert.False(ok.IsFlagged);
        Assert.True(slower.MedianRegressed);
        Assert.False(slower.P95Regressed);
        Assert.True(tail.P95Regressed);
        Assert.Equal(0.11, slower.MedianChange, 9);
    }

    [Fact]
    public void FewerThanThreePreviousRunsAreNoBaseline() =>
        Assert.Null(RegressionCheck.Evaluate(Summary(50, 60), [Summary(10, 20), Summary(10, 20)], 10));

    [Fact]
    public void LimitsPassAndFailOneByOne()
    {
        var thresholds = new Thresholds { MaxP95Ms = 25, MaxErrorPercent = 1, MinRequestsPerSecond = 150 };

        var result = ThresholdResult.Evaluate(thresholds, Summary(10, 20, errors: 20, rps: 200))!;

        Assert.False(result.Passed);
        Assert.Equal([("p95Ms", true), ("errorPercent", false), ("requestsPerSecond", true)], result.Checks.Select(c => (c.Metric, c.Passed)));
        Assert.Equal(2.0, result.Checks[1].Actual);
        Assert.Null(ThresholdResult.Evaluate(Thresholds.None, Summary(10, 20)));
    }

    [Fact]
    public void ARunWithNoLatencyFailsALatencyLimit()
    {
        var result = ThresholdResult.Evaluate(new Thresholds { MaxMedianMs = 100 }, new RunSummary(10, 10, 0, null, null, null, null))!;
        Assert.False(result.Passed);
    }

    [Fact]
    public void BadLimitsAreFieldErrors() =>
        Assert.Equal(["maxErrorPercent", "maxMedianMs", "maxP95Ms", "regressionPercent", "trailingRuns"],
            new Thresholds { MaxP95Ms = -1, MaxMedianMs = double.PositiveInfinity, MaxErrorPercent = 101, RegressionPercent = double.NaN, TrailingRuns = 2 }.Validate().Keys.Order());

    [Fact]
    public void ARunWithNoRequestsFailsAnErrorLimit() =>
        Assert.False(ThresholdResult.Evaluate(new Thresholds { MaxErrorPercent = 1 }, new RunSummary(0, 0, 0, null, null, null, null))!.Passed);

    [Fact]
    public void EachRunIsJudgedByTheRunsImmediatelyBeforeIt()
    {
        int[] runs = [0, 1, 2, 3, 4, 5, 6];
        Assert.Empty(RegressionCheck.Previous(runs, 0, 3));
        Assert.Equal([0, 1], RegressionCheck.Previous(runs, 2, 3));
        Assert.Equal([3, 4, 5], RegressionCheck.Previous(runs, 6, 3));
    }
}
