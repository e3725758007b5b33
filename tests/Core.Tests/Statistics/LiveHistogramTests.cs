using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class LiveHistogramTests
{
    [Fact]
    public void LivePercentilesAreWithinAThirtySecondOfTheExactOnesAndNeverBelow()
    {
        var random = new Random(11);
        var values = Enumerable.Range(0, 50_000).Select(_ => (long)(Math.Exp(random.NextDouble() * 12) * 1_000)).ToArray();
        var live = new LiveHistogram();
        foreach (var v in values) live.Add(v);
        var sorted = values.Order().ToArray();

        foreach (var permille in new[] { 1, 500, 900, 950, 990, 999, 1000 })
        {
            var exact = Percentile.NearestRank(sorted, permille);
            var approximate = live.ValueAt(permille)!.Value;
            Assert.InRange(approximate, exact, exact + Math.Max(1, exact / 32));
        }
        Assert.Equal(sorted[^1], live.MaxNs);
        Assert.Equal(values.Length, live.Count);
    }

    [Fact]
    public void EveryValueFallsInABucketWhoseUpperEdgeHoldsIt()
    {
        foreach (var v in new long[] { 0, 1, 63, 64, 65, 127, 128, 1_000, 999_999, 1_000_000_007, long.MaxValue / 3, long.MaxValue })
        {
            var index = LiveHistogram.IndexOf(v);
            Assert.InRange(index, 0, LiveHistogram.BucketCount - 1);
            Assert.True(LiveHistogram.UpperEdge(index) >= v, $"{v} above the upper edge of bucket {index}");
            if (index > 0) Assert.True(LiveHistogram.UpperEdge(index - 1) < v, $"{v} also fits bucket {index - 1}");
        }
    }

    [Fact]
    public void AnEmptyHistogramHasNoPercentiles() => Assert.Null(new LiveHistogram().ValueAt(500));
}
