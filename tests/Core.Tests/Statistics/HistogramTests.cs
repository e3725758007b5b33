using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class HistogramTests
{
    [Fact]
    public void EveryValueLandsInExactlyOneLogBinAndOneOutlierDoesNotSqueezeTheBody()
    {
        // 10,000 values from 1 to 1.5 ms and one of 1 s: with 40 equal-width bins all 10,000 shared one bar.
        var values = Enumerable.Range(0, 10_000).Select(i => 1_000_000L + i * 50).Append(1_000_000_000).ToArray();

        var histogram = LogHistogram.Build(values);
        var counts = histogram.Counts[0];

        Assert.Equal(values.Length, counts.Sum());
        Assert.True(counts.Count(c => c > 0) >= 10, $"the body spreads over {counts.Count(c => c > 0)} bins");
        Assert.Equal(1, counts[^1]); // the outlier alone, at the far end
        Assert.InRange(histogram.EdgesNs.Count - 1, 20, LogHistogram.MaxBins);
        for (var i = 1; i < histogram.EdgesNs.Count; i++) Assert.True(histogram.EdgesNs[i] > histogram.EdgesNs[i - 1]);
        Assert.True(histogram.EdgesNs[0] <= values.Min() && histogram.EdgesNs[^1] >= values.Max());
    }

    [Fact]
    public void EdgesGrowByAConstantFactor()
    {
        var values = new long[] { 100_000, 1_000_000, 10_000_000, 100_000_000 };
        var edges = LogHistogram.Build(values).EdgesNs;
        var ratios = edges.Skip(2).Zip(edges.Skip(1), (b, a) => (double)b / a).ToList();
        Assert.All(ratios, r => Assert.InRange(r, ratios[0] * 0.99, ratios[0] * 1.01));
    }

    [Fact]
    public void SetsShareEdgesAndKeepTheirOwnCounts()
    {
        var histogram = LogHistogram.Build([new long[] { 1_000, 2_000, 3_000 }, new long[] { 50_000 }]);
        Assert.Equal(3, histogram.Counts[0].Sum());
        Assert.Equal(1, histogram.Counts[1].Sum());
        Assert.Equal(histogram.EdgesNs.Count - 1, histogram.Counts[1].Length);
    }

    [Fact]
    public void IdenticalValuesFitOneBin() => Assert.Equal(3, LogHistogram.Build(new long[] { 5, 5, 5 }).Counts[0].Single(c => c > 0));

    [Fact]
    public void NoValuesMakeNoBins() => Assert.Empty(LogHistogram.Build(Array.Empty<long>()).EdgesNs);

    [Fact]
    public void ThePercentilePlotReachesAsFarAsTheDataAndNeverGoesDown()
    {
        var sorted = Enumerable.Range(1, 10_000).Select(i => (long)i).ToArray();
        var points = Distribution.Percentiles(sorted);

        Assert.Equal(0, points[0].Fraction);
        Assert.Equal((1.0, 10_000L), (points[^1].Fraction, points[^1].LatencyNs));
        Assert.Contains(points, p => p.Fraction > 0.999); // 10,000 values reach p99.9 and beyond
        for (var i = 1; i < points.Count; i++) Assert.True(points[i].LatencyNs >= points[i - 1].LatencyNs && points[i].Fraction > points[i - 1].Fraction);
        // Nearest rank: the point at p is the value at rank ⌈p·n⌉.
        Assert.All(points.Skip(1), p => Assert.Equal((long)Math.Ceiling(p.Fraction * 10_000), p.LatencyNs));
    }

    [Fact]
    public void TheCdfEndsAtTheMaximumAndRisesToOne()
    {
        var sorted = new long[] { 1, 2, 3, 10 };
        Assert.Equal([new(0.25, 1), new(0.5, 2), new(0.75, 3), new(1.0, 10)], Distribution.Cdf(sorted));
        Assert.Equal(400, Distribution.Cdf(Enumerable.Range(1, 5_000).Select(i => (long)i).ToArray()).Count);
    }
}
