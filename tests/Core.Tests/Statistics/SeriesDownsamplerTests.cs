using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class SeriesDownsamplerTests
{
    [Fact]
    public void ASingleSpikeSurvivesDownsampling()
    {
        var series = Enumerable.Range(0, 100_000).Select(i => new SeriesPoint(i, i == 54_321 ? 900 : 10 + i % 3)).ToList();

        var reduced = SeriesDownsampler.MinMax(series, 2000);

        Assert.True(reduced.Count <= 2000);
        Assert.Contains(reduced, p => p.Index == 54_321 && p.LatencyNs == 900);
        Assert.Equal(10, reduced.Min(p => p.LatencyNs));
        Assert.Equal(reduced.OrderBy(p => p.Index).Select(p => p.Index), reduced.Select(p => p.Index)); // stays in order
    }

    [Fact]
    public void ASeriesThatFitsIsReturnedWhole()
    {
        var series = Enumerable.Range(0, 10).Select(i => new SeriesPoint(i, i)).ToList();

        Assert.Equal(series, SeriesDownsampler.MinMax(series, 100));
    }
}
