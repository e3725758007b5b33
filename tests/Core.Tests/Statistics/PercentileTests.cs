using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class PercentileTests
{
    [Fact]
    public void OneToThousandGivesTheTextbookNearestRankValues()
    {
        var ladder = LatencyLadder.From(Enumerable.Range(1, 1000).Select(i => (long)i))!;

        Assert.Equal(500, ladder.P50Ns);
        Assert.Equal(660, ladder.P66Ns);
        Assert.Equal(900, ladder.P90Ns);
        Assert.Equal(990, ladder.P99Ns);
        Assert.Equal(999, ladder.P999Ns);
        Assert.Equal(1, ladder.MinNs);
        Assert.Equal(1000, ladder.MaxNs);
        Assert.Equal(500.5, ladder.MeanNs);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(50)]
    [InlineData(99)]
    [InlineData(100)]
    [InlineData(150)]
    public void TheLadderIsNeverNonMonotoneForSmallSamples(int n)
    {
        // Seed 000's go-wrk printed p99 below the median at n = 50. Try many shapes of data for each n,
        // including go-wrk's situation: a few slow outliers among otherwise similar values.
        var random = new Random(n);
        for (var trial = 0; trial < 200; trial++)
        {
            var values = Enumerable.Range(0, n).Select(_ => (long)random.Next(70_000_000, 110_000_000)).ToList();
            if (trial % 2 == 0) values[random.Next(n)] = 160_000_000;
            var ladder = LatencyLadder.From(values)!;

            var rungs = new[] { ladder.MinNs }
                .Concat(LatencyLadder.Rungs.Select(r => ladder.ValueAt(r.Permille)))
                .Append(ladder.MaxNs)
                .ToArray();
            for (var i = 1; i < rungs.Length; i++)
                Assert.True(rungs[i - 1] <= rungs[i], $"n={n}, trial={trial}: rung {i - 1} ({rungs[i - 1]}) > rung {i} ({rungs[i]})");
            Assert.Contains(ladder.P99Ns, values); // nearest rank never invents a value
        }
    }

    [Fact]
    public void ASingleValueIsEveryPercentileWithZeroDeviation()
    {
        var ladder = LatencyLadder.From([42])!;

        Assert.All(LatencyLadder.Rungs, r => Assert.Equal(42, ladder.ValueAt(r.Permille)));
        Assert.Equal(0, ladder.StdDevNs);
    }

    [Fact]
    public void TwoValuesSplitAtTheMedian()
    {
        var ladder = LatencyLadder.From([20, 10])!;

        Assert.Equal(10, ladder.P50Ns); // rank ⌈0.5 · 2⌉ = 1
        Assert.Equal(20, ladder.P66Ns); // rank ⌈0.66 · 2⌉ = 2
        Assert.Equal(Math.Sqrt(50), ladder.StdDevNs, 9);
    }

    [Fact]
    public void EmptyInputHasNoLadder() => Assert.Null(LatencyLadder.From([]));

    [Fact]
    public void PercentileOfNothingIsAnError() =>
        Assert.Throws<ArgumentException>(() => Percentile.NearestRank(ReadOnlySpan<long>.Empty, 500));

    [Theory]
    [InlineData(0)]
    [InlineData(1001)]
    public void PercentilesOutsideTheRangeAreRejected(int permille) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => Percentile.NearestRank(new long[] { 1, 2 }, permille));

    [Fact]
    public void P99OfAHundredIsTheNinetyNinthValueNotTheMaximum()
    {
        var values = Enumerable.Range(1, 100).Select(i => (long)i).ToArray();

        Assert.Equal(99, Percentile.NearestRank(values, 990));
        Assert.Equal(100, Percentile.NearestRank(values, 999));
    }
}
