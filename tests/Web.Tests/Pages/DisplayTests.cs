using BenchDashboard.Core.Comparisons;

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
    public void ARegressionSpeaksTheSameLanguage()
    {
        var flagged = new BenchDashboard.Core.Statistics.RegressionCheck(10, 90_000_000, 100_000_000, 0.173, 0.05, 10);
        Assert.Equal("⚠ regression: median 1.17× slower (117.3 % of baseline)", Web.Pages.Display.Regression(flagged));
        Assert.Equal("ok (median same (100.2 % of baseline), p95 1.11× faster (90.0 % of baseline))",
            Web.Pages.Display.Regression(flagged with { MedianChange = 0.002, P95Change = -0.1 }));
    }

    [Fact]
    public void BothWordingsReadTogether() =>
        Assert.Equal("1.20× slower (120.0 % of baseline)", Web.Pages.Display.Compared(120, 100)!.ToString());

    [Fact]
    public void ParametersReadWithoutEscapes() =>
        Assert.Contains("\"url\": \"http://x/?a=1&b=2\"", Web.Pages.Display.PrettyJson("{\"url\":\"http://x/?a=1\\u0026b=2\"}"));
}
