using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class SeriesStatisticsTests
{
    /// <summary>One worker, back to back: each sample starts when the previous one ended.</summary>
    static List<Sample> BackToBack(params (string Series, long LatencyMs)[] requests)
    {
        var samples = new List<Sample>();
        long offset = 0;
        foreach (var (series, latencyMs) in requests)
        {
            samples.Add(new Sample { Index = samples.Count, Series = series, OffsetNs = offset, LatencyNs = latencyMs * 1_000_000 });
            offset += latencyMs * 1_000_000;
        }
        return samples;
    }

    [Fact]
    public void PhasesOneAfterAnotherKeepTheirWallClockTime()
    {
        var phases = SeriesStatistics.From(BackToBack(("write", 2), ("write", 2), ("write", 2), ("read", 1), ("read", 1)));

        Assert.All(phases, p => Assert.False(p.Interleaved));
        Assert.Equal((6_000_000L, 500.0), (phases[0].Statistics.ElapsedNs, phases[0].Statistics.RequestsPerSecond));
        Assert.Equal((2_000_000L, 1000.0), (phases[1].Statistics.ElapsedNs, phases[1].Statistics.RequestsPerSecond));
    }

    [Fact]
    public void InterleavedVariantsCountOnlyTheTimeSpentInTheirOwnRequests()
    {
        // A takes 1 ms, B 4 ms, in turns: each spans the whole 15 ms, but A alone would do 1,000 /s and B 250 /s.
        var samples = BackToBack(("A", 1), ("B", 4), ("A", 1), ("B", 4), ("A", 1), ("B", 4));
        var variants = SeriesStatistics.From(samples).ToDictionary(s => s.Name);

        Assert.All(variants.Values, v => Assert.True(v.Interleaved));
        Assert.Equal((3_000_000L, 1000.0), (variants["A"].Statistics.ElapsedNs, variants["A"].Statistics.RequestsPerSecond));
        Assert.Equal((12_000_000L, 250.0), (variants["B"].Statistics.ElapsedNs, variants["B"].Statistics.RequestsPerSecond));
    }

    [Fact]
    public void VariantsOfOnePhaseTookTurnsWithEachOtherButNotWithTheNextPhase()
    {
        // A cache run with variants: A and B take turns in write, then in read-same.
        var samples = BackToBack(("A/write", 1), ("B/write", 2), ("A/write", 1), ("B/write", 2),
            ("A/read-same", 1), ("B/read-same", 1), ("A/read-same", 1), ("B/read-same", 1));
        var series = SeriesStatistics.From(samples).ToDictionary(s => s.Name);

        Assert.Equal(["B/write"], series["A/write"].TookTurnsWith);
        Assert.Equal(["A/read-same"], series["B/read-same"].TookTurnsWith);
        Assert.All(series.Values, s => Assert.True(s.Interleaved));
        Assert.Equal((2_000_000L, 1000.0), (series["A/write"].Statistics.ElapsedNs, series["A/write"].Statistics.RequestsPerSecond));
    }

    [Fact]
    public void TimeSpentIsSharedAmongTheWorkersThatSentTheRequests()
    {
        // Two workers, each sending A (2 ms) then B (2 ms) at the same moments.
        var samples = new List<Sample>();
        for (var round = 0; round < 3; round++)
            for (var worker = 0; worker < 2; worker++)
            {
                samples.Add(new Sample { Index = samples.Count, Series = "A", Connection = worker, OffsetNs = round * 4_000_000L, LatencyNs = 2_000_000 });
                samples.Add(new Sample { Index = samples.Count, Series = "B", Connection = worker, OffsetNs = round * 4_000_000L + 2_000_000, LatencyNs = 2_000_000 });
            }

        var a = SeriesStatistics.From(samples)[0].Statistics;

        Assert.Equal(6_000_000L, a.ElapsedNs); // 6 requests × 2 ms ÷ 2 workers
        Assert.Equal(1000.0, a.RequestsPerSecond);
    }
}
