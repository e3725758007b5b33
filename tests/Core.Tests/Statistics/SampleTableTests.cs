using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class SampleTableTests
{
    [Fact]
    public void EverySampleComesBackAsItWasAddedWhateverItsValuesAndItsNulls()
    {
        var samples = new List<Sample>();
        for (var i = 0; i < 300; i++)
            samples.Add(new Sample
            {
                RunId = i < 200 ? 7 : 8, Index = 1_000 - i, OffsetNs = i * 3_000_000_000L, Connection = i % 5, IsWarmup = i % 7 == 0,
                // Narrow columns widen at the first value past 32 bits (a 3 s latency, 5 GB), nulls kept on either side.
                LatencyNs = i == 150 ? 3_000_000_000L : i == 151 ? int.MinValue : 1_000_000 + i,
                Bytes = i == 260 ? 5_000_000_000L : 4_096,
                HeadersNs = i % 3 == 0 ? null : i == 120 ? long.MaxValue : 900_000,
                ConnectNs = i < 40 ? null : i % 11 == 0 ? 80_000 : null,
                LagNs = i < 100 ? null : i == 280 ? -2_500_000_000L : i,
                StatusCode = i < 10 ? null : 200 + i % 4, Error = (ErrorKind)(i % 6),
                Series = i < 50 ? null : i % 2 == 0 ? "a" : "b", Shard = i < 120 ? null : i % 3, Hit = i < 70 ? null : i % 4 == 0,
            });

        var table = SampleTable.Of(samples);

        Assert.Equal(samples.Count, table.Count);
        Assert.Equal(Json.Serialize(samples), Json.Serialize(table.ToList()));
        Assert.Equal(["a", "b"], table.SeriesNames);
        Assert.True(table.HasLag);
    }

    [Fact]
    public void TheServiceTimeInPlaceIsTheSamplesTurnedIntoServiceTime()
    {
        var samples = Enumerable.Range(0, 50).Select(i => new Sample
        {
            Index = i, OffsetNs = i * 1_000_000L, LatencyNs = 2_000_000 + i, LagNs = i % 4 == 0 ? null : i * 1_000L, StatusCode = 200,
        }).ToList();
        var table = SampleTable.Of(samples);

        table.ToServiceTimeInPlace();

        Assert.Equal(Json.Serialize(LatencyBasis.Service.Apply(samples)), Json.Serialize(table.ToList()));
        Assert.False(table.HasLag);
    }
}
