using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Kinds.Cache;

public class CachePhaseTableTests
{
    static IEnumerable<Sample> Phase(string series, int start, int count, double ms, int throttled = 0) =>
        Enumerable.Range(0, count).Select(i => new Sample
        {
            Index = start + i, Series = series, OffsetNs = (long)(i * ms * 1e6), LatencyNs = (long)(ms * 1e6),
            Error = i < throttled ? ErrorKind.Throttled : ErrorKind.None,
        });

    [Fact]
    public void TheFourPhasesSitSideBySideWithTheirTotalsMediansAndRateLimits()
    {
        // Seed 004: 100 writes about 2 ms each, reads of one key as fast, different keys slower, misses as fast as hits.
        var samples = Phase("write", 0, 100, 2.16, throttled: 3).Concat(Phase("read-same", 100, 100, 2.13))
            .Concat(Phase("read-distinct", 200, 100, 3.86)).Concat(Phase("read-miss", 300, 100, 2.1)).ToList();

        var table = CachePhaseTable.From(SeriesStatistics.From(samples));

        Assert.Equal([CachePhase.Write, CachePhase.ReadSame, CachePhase.ReadDistinct, CachePhase.ReadMiss], table.Phases);
        var row = Assert.Single(table.Rows);
        Assert.Null(row.Variant);
        Assert.Equal(0.216, row.Cells[0]!.Seconds, 6);
        Assert.Equal(0.386, row.Cells[2]!.Seconds, 6);
        Assert.Equal(3_860_000, row.Cells[2]!.MedianNs);
        Assert.Equal(3, row.Cells[0]!.Throttled);
        Assert.Equal(3, table.Throttled);
        Assert.Equal(0, row.Cells[3]!.Errors);
    }

    [Fact]
    public void VariantsAreRowsAndAMissingPhaseIsAnEmptyCell()
    {
        var samples = Phase("A/write", 0, 10, 1).Concat(Phase("B/write", 10, 10, 2)).Concat(Phase("A/read-miss", 20, 10, 1)).ToList();

        var table = CachePhaseTable.From(SeriesStatistics.From(samples));

        Assert.Equal(["A", "B"], table.Rows.Select(r => r.Variant));
        Assert.Equal([CachePhase.Write, CachePhase.ReadMiss], table.Phases);
        Assert.Null(table.Rows[1].Cells[1]);
    }
}
