using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class HistogramTests
{
    [Fact]
    public void EveryValueLandsInExactlyOneBin()
    {
        var values = Enumerable.Range(1, 10_000).Select(i => (long)i).Append(1_000_000).ToList();

        var bins = Histogram.Build(values, bins: 40);

        Assert.Equal(values.Count, bins.Sum(b => b.Count));
        // p99.9 of 10,001 values is rank ⌈0.999 · 10,001⌉ = 9,991: the overflow bin holds 9,992…10,000 and the outlier.
        Assert.Equal(10, bins[^1].Count);
        Assert.Equal(9_991, bins[^1].FromNs);
        Assert.Equal(1_000_000, bins[^1].ToNs);
    }

    [Fact]
    public void IdenticalValuesMakeOneBin() => Assert.Single(Histogram.Build([5, 5, 5]));

    [Fact]
    public void NoValuesMakeNoBins() => Assert.Empty(Histogram.Build([]));
}
