using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class HistoryRulesTests
{
    static RunSummary Summary(double medianMs, double p95Ms, int errors = 0, double rps = 100) =>
        new(1000, errors, rps, (long)(medianMs * 1e6), (long)(p95Ms * 1e6), (long)(p95Ms * 1.2e6), medianMs * 1e6);

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
        Assert.Equal(["changeMarginPercent", "confirmRuns", "maxErrorPercent", "maxMedianMs", "maxP95Ms"],
            new Thresholds { MaxP95Ms = -1, MaxMedianMs = double.PositiveInfinity, MaxErrorPercent = 101, ChangeMarginPercent = double.NaN, ConfirmRuns = 1 }.Validate().Keys.Order());

    [Fact]
    public void TheRetiredRegressionSettingsOfAnOlderExportAreReadButNeitherUsedNorWritten()
    {
        var older = Json.Deserialize<Thresholds>("""{"maxP95Ms":40,"regressionPercent":10,"trailingRuns":5}""");

        Assert.Equal((40.0, 5.0, 3), (older.MaxP95Ms, older.ChangeMarginPercent, older.ConfirmRuns));
        Assert.Empty(older.Validate());
        Assert.DoesNotContain("trailingRuns", Json.Serialize(older));
        Assert.DoesNotContain("regressionPercent", Json.Serialize(older));
    }

    [Fact]
    public void ARunWithNoRequestsFailsAnErrorLimit() =>
        Assert.False(ThresholdResult.Evaluate(new Thresholds { MaxErrorPercent = 1 }, new RunSummary(0, 0, 0, null, null, null, null))!.Passed);
}
