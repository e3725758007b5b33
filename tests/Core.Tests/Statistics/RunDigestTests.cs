using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class RunDigestTests
{
    /// <summary>Two interleaved series over 20 s, with a few errors and warm-up samples.</summary>
    static List<Sample> Samples(int n = 4_000)
    {
        var random = new Random(7);
        return Enumerable.Range(0, n).Select(i => new Sample
        {
            RunId = 1, Index = i, IsWarmup = i < 40, OffsetNs = i * 5_000_000L, Connection = i % 2,
            LatencyNs = 1_000_000 + random.Next(2_000_000) + (i % 500 == 0 ? 50_000_000 : 0),
            Error = i % 997 == 0 ? ErrorKind.ConnectionReset : ErrorKind.None, Series = i % 2 == 0 ? "A" : "B", StatusCode = 200,
        }).ToList();
    }

    static (RunDigest Digest, IReadOnlyDictionary<string, long[]> Sorted) Build(List<Sample> samples) =>
        RunDigest.Build(samples, LatencyBasis.Corrected, (_, _) => new { answered = 1 });

    [Fact]
    public void ADigestStoredAsJsonReadsBackWithTheSameExactFigures()
    {
        var samples = Samples();
        var (digest, _) = Build(samples);

        var read = Json.Deserialize<RunDigest>(Json.Serialize(digest));

        Assert.Equal(Json.Serialize(digest), Json.Serialize(read));
        Assert.Equal(RunStatistics.From(samples).Latency, read.Statistics.Latency); // nearest rank over every sample
        Assert.Equal(SeriesStatistics.From(samples).Select(s => s.Statistics.Latency), read.Series.Select(s => s.Statistics.Latency));
        Assert.Equal(1, read.Figures!.Value.GetProperty("answered").GetInt32());
    }

    [Fact]
    public void EverySeriesIsAnalysedForEveryWindowLengthAReaderCanPick()
    {
        var samples = Samples();
        var (digest, _) = Build(samples);

        Assert.Equal(["A", "B"], digest.Analyses.Select(a => a.Series));
        var a = digest.AnalysisOf("A");
        Assert.Equal([1, 5, 10, 30], a.Lengths); // 20 s of samples: a minute and longer are not offered
        var tenSeconds = a.At(10);
        var expected = RunAnalysis.Analyze(samples.Where(s => s.Series == "A").ToList(), 10);
        Assert.Equal(Json.Serialize(expected), Json.Serialize(tenSeconds));
        Assert.Equal(a.DefaultWindowSeconds, a.At(null).WindowSeconds);
        Assert.Contains("1, 5, 10, 30 seconds", Assert.Throws<ArgumentException>(() => a.At(7)).Message);
        Assert.Same(digest.Analyses[0], digest.AnalysisOf("nope")); // an unknown series falls back to the first
    }

    [Fact]
    public void TheSortedLatenciesAreTheRankedOnesAndRoundTripCompactly()
    {
        var samples = Samples(100_000);
        var (digest, sorted) = Build(samples);

        var ranked = samples.Where(s => !s.IsWarmup && s.Error == ErrorKind.None).Select(s => s.LatencyNs).Order().ToArray();
        Assert.Equal(ranked, sorted[RunDigest.WholeRun]);
        Assert.Equal(digest.Statistics.Latency!.Count, sorted[RunDigest.WholeRun].Length);
        var encoded = SortedLatencies.Encode(ranked);
        var read = new SortedLatencies(encoded);
        Assert.Equal(ranked, read); // every rank, in order
        Assert.Equal(ranked[54_321], read[54_321]); // and any rank on its own
        Assert.Equal(ranked[^1], read[ranked.Length - 1]);
        Assert.True(encoded.Length < ranked.Length * 3, $"{encoded.Length} bytes for {ranked.Length} values");
        Assert.Equal(sorted["A"].Length + sorted["B"].Length, sorted[RunDigest.WholeRun].Length);
    }

    [Fact]
    public void TheEncodingRefusesWhatItCannotKeepExactlyAndKeepsTheExtremes()
    {
        Assert.Throws<ArgumentException>(() => SortedLatencies.Encode([3, 2]));
        Assert.Equal([0L, 5, long.MaxValue], new SortedLatencies(SortedLatencies.Encode([0, 5, long.MaxValue])));
        Assert.Empty(new SortedLatencies(SortedLatencies.Encode([])));
        Assert.Throws<ArgumentOutOfRangeException>(() => new SortedLatencies(SortedLatencies.Encode([1, 2]))[2]);
        var values = new long[] { 1, 2, 3, 10 };
        Assert.Equal([0, 0, 1, 3, 4], new long[] { 0, 1, 2, 4, 11 }.Select(v => SortedLatencies.CountBelow(values, v)));
    }

    [Fact]
    public void AJourneysRunFiguresCountItsRequestsAndItsIterationsApart()
    {
        // Per iteration two steps and the iteration's own sample (their sum), on two connections; 2 warm-up iterations.
        var samples = new List<Sample>();
        for (var it = 0; it < 12; it++)
            foreach (var (series, ms) in new[] { ("A/login", 1), ("A/orders", 2), ("A/iteration", 3) })
                samples.Add(new Sample { Index = samples.Count, Shard = it % 2, IsWarmup = it < 2, OffsetNs = it * 10_000_000L, Connection = it % 2, LatencyNs = ms * 1_000_000L, Series = series, StatusCode = ms < 3 ? 200 : null, Bytes = ms < 3 ? 100 : 0 });
        var basis = new BenchDashboard.Core.Benchmarks.SeriesBasis(false, false, Iterations: "iteration");

        var (digest, sorted) = RunDigest.Build(samples, LatencyBasis.Corrected, (_, _) => null, isIterations: basis.IsIterations);

        Assert.Equal(20, digest.Statistics.Count);
        Assert.Equal(4, digest.Statistics.WarmupCount);
        Assert.Equal(10, digest.Iterations);
        Assert.Equal(2 * 1_000_000L, digest.Statistics.Latency!.MaxNs); // the iterations' 3 ms are no request's
        Assert.Equal(20, sorted[RunDigest.WholeRun].Length);
        Assert.Equal(10, sorted["A/iteration"].Length); // still a series of its own, with its own figures
        Assert.Equal(3, digest.Series.Count);
        // Each agent's row: every sample it stored, the requests among them measured.
        Assert.All(digest.Shards!, shard => Assert.Equal((18, 10), (shard.Samples, shard.Count)));
        Assert.Null(Build(Samples()).Digest.Iterations); // a run without iterations counts every sample
    }
}
