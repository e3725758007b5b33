using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class BaselineComparisonTests
{
    /// <summary>n requests of the given latency, back to back from time 0.</summary>
    static RunStatistics Steady(int n, long latencyNs) =>
        RunStatistics.From(Enumerable.Range(0, n).Select(i => new Sample { Index = i, OffsetNs = i * latencyNs, LatencyNs = latencyNs }).ToList());

    [Fact]
    public void EachFigureIsAPercentageOfTheBaselines()
    {
        var rows = BaselineComparison.Compare([("write", Steady(100, 2_000_000)), ("read-distinct", Steady(100, 3_000_000))], "write");

        var write = rows.Single(r => r.Name == "write");
        var read = rows.Single(r => r.Name == "read-distinct");
        Assert.True(write.IsBaseline);
        Assert.All(BaselineComparison.Metrics.Where(m => m != ComparedMetric.Errors), m => Assert.Equal(100, write.PercentOfBaseline[m]!.Value, 9));
        Assert.Equal(150, read.PercentOfBaseline[ComparedMetric.Median]!.Value, 9);
        Assert.Equal(150, read.PercentOfBaseline[ComparedMetric.TotalTime]!.Value, 9);
        Assert.Equal(100.0 * 2 / 3, read.PercentOfBaseline[ComparedMetric.Throughput]!.Value, 9);
        Assert.Equal(3_000_000, read.Values[ComparedMetric.P99]);
    }

    [Fact]
    public void APercentageOfZeroOrOfNothingIsUndefinedNotInfinite()
    {
        var empty = RunStatistics.From([]);
        var rows = BaselineComparison.Compare([("a", Steady(10, 1_000)), ("b", empty)], "a");

        Assert.Null(rows[0].PercentOfBaseline[ComparedMetric.Errors]); // 0 errors in the baseline
        Assert.Null(rows[1].PercentOfBaseline[ComparedMetric.Median]); // no latency at all
    }

    [Fact]
    public void PerEntityABatchOfTenThatTakesFourTimesAsLongIsTwoPointFiveTimesFaster()
    {
        // A single insert of 2 ms against a batch of 10 in 8 ms: per request the batch is 4× slower, per entity 2.5× faster.
        var rows = BaselineComparison.Compare([("single", Steady(100, 2_000_000)), ("batch", Steady(100, 8_000_000))], "single",
            name => name == "batch" ? 10 : 1);

        var batch = rows.Single(r => r.Name == "batch");
        Assert.Equal(800_000, batch.Values[ComparedMetric.Median]!.Value, 9);
        Assert.Equal(40, batch.PercentOfBaseline[ComparedMetric.Median]!.Value, 9);
        Assert.Equal(40, batch.PercentOfBaseline[ComparedMetric.TotalTime]!.Value, 9); // time spent per entity written
        Assert.Equal(250, batch.PercentOfBaseline[ComparedMetric.Throughput]!.Value, 9); // entities per second
    }

    [Fact]
    public void AnUnknownBaselineIsRefused() =>
        Assert.Throws<ArgumentException>(() => BaselineComparison.Compare([("a", Steady(1, 1))], "b"));
}
