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
    [InlineData(26, 1, false, "26.0× slower", "worse")]
    [InlineData(1, 1.3, false, "1.30× faster", "better")]
    [InlineData(118, 100, true, "1.18× more", "better")]
    [InlineData(100, 100.4, false, "same", "same")]
    public void ARatioSaysHowManyTimesAndWhichWayIsBetter(double candidate, double baseline, bool higherIsBetter, string text, string css) =>
        Assert.Equal((text, css), Web.Pages.Display.Ratio(candidate, baseline, higherIsBetter));

    [Fact]
    public void ParametersReadWithoutEscapes() =>
        Assert.Contains("\"url\": \"http://x/?a=1&b=2\"", Web.Pages.Display.PrettyJson("{\"url\":\"http://x/?a=1\\u0026b=2\"}"));
}
