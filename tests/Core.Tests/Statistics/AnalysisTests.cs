using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

/// <summary>The run analysis tested against known truth: synthetic series whose warm-up, episodes and shifts are known.</summary>
public class AnalysisTests
{
    const long Ms = 1_000_000;

    /// <summary>Steady latency around <paramref name="levelMs"/> with ±5 % uniform noise, from a fixed seed.</summary>
    static long Noisy(Random random, double levelMs) => (long)(levelMs * Ms * (0.95 + 0.1 * random.NextDouble()));

    /// <summary>Log-normal latencies (median ≈ <paramref name="medianMs"/>, a realistic right tail).</summary>
    static long[] LogNormal(int n, double medianMs, int seed)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, n).Select(_ =>
        {
            var normal = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
            return (long)(medianMs * Ms * Math.Exp(0.3 * normal));
        }).ToArray();
    }

    [Fact]
    public void AWarmUpDescendingFrom30MsOver4000SamplesIsFoundWithin10Percent()
    {
        var random = new Random(3);
        var series = Enumerable.Range(0, 20_000)
            .Select(i => i < 4000 ? Noisy(random, 30 - 20.0 * i / 4000) : Noisy(random, 10))
            .ToList();

        var warmup = WarmupDetector.Detect(series)!;

        Assert.InRange(warmup.Samples, 3600, 4400);
        Assert.True(warmup.IsReliable);
        Assert.Equal(10 * Ms, warmup.SteadyMeanNs, 0.02 * 10 * Ms);
    }

    [Fact]
    public void ASeriesStillClimbingAtHalfTimeHasNoSteadyState()
    {
        var random = new Random(9);
        var warmup = WarmupDetector.Detect(Enumerable.Range(0, 10_000).Select(i => Noisy(random, 10 + i / 100.0)).ToList())!;
        Assert.False(warmup.IsReliable);
    }

    [Fact]
    public void ASteadySeriesHasNoWarmUp()
    {
        var random = new Random(5);
        var warmup = WarmupDetector.Detect(Enumerable.Range(0, 10_000).Select(_ => Noisy(random, 10)).ToList())!;
        Assert.True(warmup.IsReliable);
        Assert.InRange(warmup.Samples, 0, 200); // at most a few batches, chosen by chance
    }

    [Fact]
    public void TheOrderStatisticShortcutDrawsResampledPercentilesWithTheirExactDistribution()
    {
        // Brute force: resample 9 values with replacement and take the nearest-rank median (the 5th smallest).
        long[] sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90];
        const int draws = 40_000;
        var brute = new Random(1);
        var shortcut = new Random(2);
        var byResampling = new Dictionary<long, int>();
        var byShortcut = new Dictionary<long, int>();
        for (var i = 0; i < draws; i++)
        {
            var resample = Enumerable.Range(0, 9).Select(_ => sorted[brute.Next(9)]).Order().ToArray();
            var m = Percentile.NearestRank(resample, 500);
            byResampling[m] = byResampling.GetValueOrDefault(m) + 1;
            var s = Bootstrap.ResampledPercentile(sorted, 500, shortcut);
            byShortcut[s] = byShortcut.GetValueOrDefault(s) + 1;
        }
        // Every value's share agrees within 1 percentage point (the sampling error here is ~0.3).
        Assert.All(sorted, v => Assert.InRange(byShortcut.GetValueOrDefault(v) - byResampling.GetValueOrDefault(v), -draws / 100, draws / 100));
        Assert.True(byShortcut.GetValueOrDefault(50) > draws / 5); // the middle value is the most likely median
    }

    [Fact]
    public void AGapInTrafficIsAnEmptyWindowNotAMissingRow()
    {
        var samples = new[] { 0L, 1, 25 }.Select((s, i) => new Sample { Index = i, OffsetNs = s * 1_000_000_000L, LatencyNs = Ms }).ToList();
        var windows = TimeWindows.Build(samples, 10_000 * Ms);
        Assert.Equal([2, 0, 1], windows.Select(w => w.Count));
        Assert.Null(windows[1].MeanNs);
    }

    [Fact]
    public void IrregularEpisodesHaveNoPeriod()
    {
        var random = new Random(13);
        int[] starts = [1000, 1500, 4000, 4300, 9000];
        var series = Enumerable.Range(0, 12_000)
            .Select(i => new SeriesSample(i, i * Ms, starts.Any(s => i >= s && i < s + 30) ? Noisy(random, 50) : Noisy(random, 10)))
            .ToList();
        var report = DegradationDetector.Detect(series)!;
        Assert.Equal(5, report.Episodes.Count);
        Assert.Null(report.PeriodSamples);
    }

    [Fact]
    public void SpikesOfFiveTimesEvery2000SamplesAreEpisodesWithThatPeriod()
    {
        var random = new Random(7);
        var series = Enumerable.Range(0, 20_000)
            .Select(i => new SeriesSample(i, i * 10 * Ms, i % 2000 is >= 1000 and < 1030 ? Noisy(random, 50) : Noisy(random, 10)))
            .ToList();

        var report = DegradationDetector.Detect(series)!;

        Assert.Equal(10, report.Episodes.Count);
        Assert.All(report.Episodes, (e, k) =>
        {
            Assert.InRange(e.StartIndex, k * 2000 + 995, k * 2000 + 1005);
            Assert.InRange(e.Length, 25, 35);
            Assert.InRange(e.MeanRatio, 4.5, 5.5);
        });
        Assert.Equal(2000, report.PeriodSamples!.Value, 1.0);
        Assert.Equal(20.0, report.PeriodSeconds!.Value, 0.1);
    }

    [Fact]
    public void ScatteredOutliersAreATailNotEpisodes()
    {
        var random = new Random(11);
        var series = Enumerable.Range(0, 20_000)
            .Select(i => new SeriesSample(i, i * Ms, random.Next(300) == 0 ? Noisy(random, 100) : Noisy(random, 10)))
            .ToList();

        var report = DegradationDetector.Detect(series)!;

        Assert.Empty(report.Episodes);
        Assert.Null(report.PeriodSamples);
    }

    [Fact]
    public void TwoRunsFromTheSameDistributionShowNoSignificantDifference()
    {
        var a = LogNormal(5000, 10, seed: 1);
        var b = LogNormal(5000, 10, seed: 2);

        var median = Bootstrap.Change(a, b, 500)!;
        var p95 = Bootstrap.Change(a, b, 950)!;

        Assert.False(median.IsSignificant, $"{median.Lower:P1} .. {median.Upper:P1}");
        Assert.False(p95.IsSignificant, $"{p95.Lower:P1} .. {p95.Upper:P1}");
    }

    [Fact]
    public void ATenPercentShiftIsDetectedWithAnIntervalThatCoversIt()
    {
        var a = LogNormal(5000, 10, seed: 1);
        var b = LogNormal(5000, 11, seed: 2);

        var median = Bootstrap.Change(a, b, 500)!;

        Assert.True(median.IsSignificant);
        Assert.InRange(0.10, median.Lower, median.Upper);
        Assert.InRange(median.Upper - median.Lower, 0.01, 0.08); // a useful interval, not "anything"
        Assert.Equal(median, Bootstrap.Change(a, b, 500)); // deterministic for a seed
    }

    [Fact]
    public void TheIntervalHasItsNominalCoverage()
    {
        // 200 pairs of samples whose true medians differ by exactly 10 %: about 95 % of the intervals cover it.
        var covered = Enumerable.Range(0, 200).Count(i =>
            Bootstrap.Change(LogNormal(1000, 10, seed: 1000 + i), LogNormal(1000, 11, seed: 5000 + i), 500, resamples: 500)! is var c
            && c.Lower <= 0.10 && 0.10 <= c.Upper);
        Assert.InRange(covered, 178, 198); // 89–99 %
    }

    [Fact]
    public void TimeWindowsFollowSeed003sLayout()
    {
        // 10 requests per second for 30 s: the 10-s windows have 100 each; the slower middle window shows.
        var samples = Enumerable.Range(0, 300).Select(i => new Sample
        {
            Index = i, OffsetNs = 5_000_000_000L + i * 100 * Ms, LatencyNs = i is >= 100 and < 200 ? 20 * Ms + i : 10 * Ms + i,
            Error = i == 250 ? ErrorKind.Timeout : ErrorKind.None,
        }).ToList();

        var windows = TimeWindows.Build(samples, 10_000 * Ms);

        Assert.Equal([1, 2, 3], windows.Select(w => w.Number));
        Assert.All(windows, w => Assert.Equal(100, w.Count));
        Assert.Equal([0, 0, 1], windows.Select(w => w.Errors));
        Assert.Equal(20 * Ms + 100, windows[1].MinNs);
        Assert.Equal(20 * Ms + 179, windows[1].P80Ns);
        Assert.Equal(20 * Ms + 194, windows[1].P95Ns);
        Assert.Equal(10 * Ms + 299, windows[2].MaxNs); // the timeout is counted, not ranked
        Assert.Equal(30, TimeWindows.DefaultLengthSeconds(30_000 * Ms, windows: 1)); // 30 s fits once
        Assert.Throws<ArgumentException>(() => TimeWindows.Build(samples, Ms)); // 30,000 windows
    }
}
