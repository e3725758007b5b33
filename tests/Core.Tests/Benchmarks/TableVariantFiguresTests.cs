using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class TableVariantFiguresTests
{
    const long Ms = 1_000_000;

    [Fact]
    public void EntitiesPerSecondIsWhatTheVariantWritesInTheServiceTimeOfItsOwnRequests()
    {
        // Two variants taking turns on two workers: singles take 2 ms, batches of 10 take 5 ms; in the open model
        // each also waited 100 ms for a connection, which is not time the variant spent being served.
        var p = new TableParameters { Operations = [TableOperation.Single, TableOperation.Batch], Expect100Continue = [true], Nagle = [true], Concurrency = 2 };
        var samples = Enumerable.Range(0, 40).Select(i => new Sample
        {
            Index = i, Connection = i / 2 % 2, Series = i % 2 == 0 ? "single/expect-on/nagle-on" : "batch/expect-on/nagle-on",
            OffsetNs = i * 10 * Ms, LagNs = 100 * Ms, LatencyNs = 100 * Ms + (i % 2 == 0 ? 2 : 5) * Ms, StatusCode = 201,
        }).ToList();

        var figures = TableVariantFigures.From(p, SeriesStatistics.From(samples), samples);

        // 20 requests per variant on 2 workers: 20 ms of singles each (20 entities ÷ 20 ms), 50 ms of batches (200 ÷ 50 ms).
        Assert.Equal(1000, figures[0].EntitiesPerSecond!.Value, 6);
        Assert.Equal(4000, figures[1].EntitiesPerSecond!.Value, 6);
        Assert.Equal(200, figures[1].EntitiesWritten);
    }
}
