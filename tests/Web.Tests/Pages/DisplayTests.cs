using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics.Changes;

namespace BenchDashboard.Web.Tests.Pages;

public class DisplayTests
{
    [Theory]
    [InlineData(170, "170 ns")]
    [InlineData(1_234, "1.234 µs")]
    [InlineData(999_999, "1.000 ms")]
    [InlineData(999_949, "999.9 µs")]
    [InlineData(999, "999 ns")]
    [InlineData(1_000, "1.000 µs")]
    [InlineData(10_270_000, "10.27 ms")]
    [InlineData(104_600_000, "104.6 ms")]
    [InlineData(2_345_000_000, "2.345 s")]
    [InlineData(1_234_000_000_000, "1,234 s")]
    public void ADurationTakesTheUnitItsSizeCallsForWithFourSignificantDigits(long ns, string shown) =>
        Assert.Equal(shown, Web.Pages.Display.Duration(ns));

    [Theory]
    [InlineData(26, 1, false, "26.0× slower", "2,600 %")]
    [InlineData(1, 1.3, false, "1.30× faster", "76.9 %")]
    [InlineData(118, 100, true, "1.18× more", "118.0 %")]
    [InlineData(100, 100.4, false, "same", "99.6 %")]
    public void AComparisonSaysHowManyTimesWhichWayAndThePercentageOfTheBaseline(double candidate, double baseline, bool higherIsBetter, string ratio, string percent)
    {
        var shown = Web.Pages.Display.Compared(candidate, baseline, higherIsBetter)!;
        Assert.Equal((ratio, percent), (shown.Ratio, shown.Percent));
        Assert.Equal("", shown.Css); // no verdict: no colour
    }

    [Theory]
    [InlineData(101, 100, false, VerdictCall.CannotTell, "")]
    [InlineData(101, 100, false, VerdictCall.Equivalent, "")]
    [InlineData(120, 100, false, VerdictCall.Slower, "worse")]
    [InlineData(80, 100, false, VerdictCall.Faster, "better")]
    [InlineData(120, 100, true, VerdictCall.Faster, "better")]
    [InlineData(120, 100, false, VerdictCall.Faster, "")] // the verdict and this figure disagree: no colour claims either
    public void ColourOnlyWhenTheVerdictFoundADifferenceTheSameWay(double candidate, double baseline, bool higherIsBetter, VerdictCall call, string css) =>
        Assert.Equal(css, Web.Pages.Display.Compared(candidate, baseline, higherIsBetter, call)!.Css);

    [Fact]
    public void ARunsPlaceInItsHistorySpeaksTheSameLanguage()
    {
        var evidence = new ChangeEvidence(10, 3, 0.999, 0.95, 0.05,
            [new("median", 90_000_000, 105_570_000, 0.173, 0.08, 0.27, ChangeDirection.Regression, 0.1, 0.25), new("p95", 1, 1, 0, 0, 0, ChangeDirection.None), new("p99", 1, 1, 0, 0, 0, ChangeDirection.None)]);
        var flagged = new HistoryJudgement(HistoryJudgement.CurrentVersion, 40, false, [new ConfirmedChange(40, 42, [30], [40, 41, 42], evidence)], null);

        Assert.Equal("⚠ regression: median 1.17× slower (99.9 % interval 1.08× to 1.27×) since run 40, confirmed by run 42", Web.Pages.Display.History(flagged));
        Assert.Equal("possible change since run 41 (p99 slower), waiting for 2 more runs",
            Web.Pages.Display.History(flagged with { Confirmed = [], Pending = new PendingChange(41, 1, 2, ChangeDirection.Regression, "p99") }));
        Assert.Equal("in line with the runs since run 40", Web.Pages.Display.History(flagged with { Confirmed = [] }));
        Assert.Equal("not judged yet", Web.Pages.Display.History(null));
    }

    [Fact]
    public void BothWordingsReadTogether() =>
        Assert.Equal("1.20× slower (120.0 % of baseline)", Web.Pages.Display.Compared(120, 100)!.ToString());

    [Fact]
    public void ParametersReadWithoutEscapes() =>
        Assert.Contains("\"url\": \"http://x/?a=1&b=2\"", Web.Pages.Display.PrettyJson("{\"url\":\"http://x/?a=1\\u0026b=2\"}"));
}
