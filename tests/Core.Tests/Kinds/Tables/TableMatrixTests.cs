using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Kinds.Tables;

public class TableMatrixTests
{
    const long Ms = 1_000_000;

    /// <summary>The Table Storage batch matrix, variants taking turns: both on 2 ms, Expect off with Nagle on held by the ~40 ms delayed ACK, the rest as fast as both on.</summary>
    static IReadOnlyList<TableVariantFigures> Figures(int rounds = 200)
    {
        var p = new TableParameters { Operations = [TableOperation.Batch], Expect100Continue = [true, false], Nagle = [true, false], BatchSize = 10 };
        var variants = p.Variants();
        var random = new Random(3);
        var samples = Enumerable.Range(0, rounds * variants.Count).Select(i =>
        {
            var v = variants[i % variants.Count];
            var ms = v is { Expect100Continue: false, Nagle: true } ? 42 : 2;
            return new Sample
            {
                Index = i, Series = v.Series, OffsetNs = i * 50 * Ms, StatusCode = 202,
                LatencyNs = ms * Ms + random.Next(0, 200_000),
            };
        }).ToList();
        return TableVariantFigures.From(p, SeriesStatistics.From(samples), samples);
    }

    [Fact]
    public void TheDelayedAckCellStandsOutWithItsReasonAndTheOthersAreNotColoured()
    {
        var matrix = Assert.Single(TableMatrix.From(Figures()));

        Assert.Equal("batch", matrix.Operation);
        Assert.Equal(10, matrix.EntitiesPerRequest);
        var baseline = matrix.At(expect: true, nagle: true)!;
        Assert.True(baseline.IsBaseline);
        Assert.Equal("baseline", baseline.RatioText);
        Assert.False(baseline.StandsOut);

        var delayed = matrix.At(expect: false, nagle: true)!;
        Assert.Equal(VerdictCall.Slower, delayed.Call);
        Assert.True(delayed.StandsOut);
        Assert.InRange(delayed.Ratio!.Value, 20, 22);
        Assert.EndsWith("× slower", delayed.RatioText);
        Assert.StartsWith("4", delayed.Reason); // "40.x ms more per request: with Nagle on and Expect off, …"
        Assert.Contains("ms more per request: with Nagle on and Expect off", delayed.Reason);
        Assert.Contains("delays that ACK", delayed.Reason);

        foreach (var same in new[] { matrix.At(true, false)!, matrix.At(false, false)! })
        {
            Assert.False(same.StandsOut, same.Series);
            Assert.Null(same.Reason);
        }
        // Medians per entity: 2 ms a batch of 10 is 200 µs an entity.
        Assert.InRange(baseline.MedianPerEntityNs!.Value, 200_000, 220_000);
    }

    [Theory]
    [InlineData(false, true, VerdictCall.Slower, -40.0, "delays that ACK")]
    [InlineData(true, false, VerdictCall.Faster, 47.6, "the size of a delayed ACK")]
    [InlineData(false, false, VerdictCall.Faster, 48.0, "the size of a delayed ACK")]
    [InlineData(true, false, VerdictCall.Faster, 2.0, "Nagle off sends")]
    [InlineData(false, true, VerdictCall.Faster, 2.6, "100 Continue")]
    [InlineData(false, true, VerdictCall.Slower, -3.0, "took turns")]
    public void TheDelayedAckIsNamedOnlyWhenTheDifferenceIsItsSize(bool expect, bool nagle, VerdictCall call, double savedMs, string said)
    {
        var reason = TableMatrix.Reason("batch", expect, nagle, call, savedMs);

        Assert.Contains(said, reason);
        Assert.Equal(said.Contains("ACK"), reason.Contains("delayed ACK") || reason.Contains("delays that ACK"));
    }

    [Fact]
    public void TooFewTurnsCallNothingSoNothingIsColouredWhateverTheRatio()
    {
        var matrix = Assert.Single(TableMatrix.From(Figures(rounds: 10)));

        var delayed = matrix.At(expect: false, nagle: true)!;
        Assert.Null(delayed.Call);
        Assert.False(delayed.StandsOut);
        Assert.InRange(delayed.Ratio!.Value, 20, 22);
    }

    [Fact]
    public void FiguresStoredBeforeVerdictsExistedGiveRatiosWithoutColour()
    {
        var old = Figures().Select(f => f with { MedianCall = null }).ToList();

        Assert.All(Assert.Single(TableMatrix.From(old)).All, c => Assert.False(c.StandsOut));
    }
}
