using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class LiveHistogramTests
{
    [Theory]
    [InlineData(50_000, 11)]
    [InlineData(150, 3)]  // few values: one rank apart is a large step, so rounding p · n instead of ⌈p · n⌉ would show
    [InlineData(7, 5)]
    public void LivePercentilesAreWithinAThousandthOfTheExactOnesAndNeverBelow(int n, int seed)
    {
        var random = new Random(seed);
        var values = Enumerable.Range(0, n).Select(_ => (long)(Math.Exp(random.NextDouble() * 12) * 1_000)).ToArray();
        var live = new LiveHistogram();
        foreach (var v in values) live.Add(v);
        var sorted = values.Order().ToArray();

        for (var permille = 1; permille <= 1000; permille++)
        {
            var exact = Percentile.NearestRank(sorted, permille);
            var approximate = live.ValueAt(permille)!.Value;
            Assert.InRange(approximate, exact, exact + Math.Max(1, exact / 1000));
        }
        Assert.Equal(sorted[^1], live.MaxNs);
        Assert.Equal(sorted[^1], live.ValueAt(1000));
        Assert.Equal(values.Length, live.Count);
    }

    [Fact]
    public void ValuesBeyondTheRangeCountAsItsEnds()
    {
        var live = new LiveHistogram();
        live.Add(-5);
        live.Add(long.MaxValue);

        Assert.Equal(2, live.Count);
        Assert.Equal(0, live.ValueAt(500));
        Assert.Equal(LiveHistogram.HighestNs, live.MaxNs);
    }

    [Fact]
    public void ClearingStartsOver()
    {
        var live = new LiveHistogram();
        live.Add(5_000_000);
        live.Clear();
        live.Add(1_000);

        Assert.Equal((1L, 1_000L, 1_000L), (live.Count, live.MaxNs, live.ValueAt(990)!.Value));
    }

    [Fact]
    public void AddingAHistogramGivesTheSamePercentilesAsAddingItsValues()
    {
        var random = new Random(7);
        var values = Enumerable.Range(0, 20_000).Select(_ => (long)(Math.Exp(random.NextDouble() * 15) * 100)).ToArray();
        var (whole, total, part) = (new LiveHistogram(), new LiveHistogram(), new LiveHistogram());
        for (var i = 0; i < values.Length; i++)
        {
            whole.Add(values[i]);
            part.Add(values[i]);
            if (i % 3_000 == 0) // the snapshot's way: a part added into the total, then cleared for reuse
            {
                total.Add(part);
                part.Clear();
            }
        }
        total.Add(part);
        total.Add(new LiveHistogram());

        Assert.Equal((whole.Count, whole.MaxNs), (total.Count, total.MaxNs));
        for (var permille = 1; permille <= 1000; permille++) Assert.Equal(whole.ValueAt(permille), total.ValueAt(permille));
    }

    [Fact]
    public void AnEmptyHistogramHasNoPercentiles() => Assert.Null(new LiveHistogram().ValueAt(500));
}
