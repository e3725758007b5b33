using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

/// <summary>Windows at a run's edges: the last, partial window, and a run too short for whole seconds.</summary>
public class TimeWindowEdgeTests
{
    const long Ms = 1_000_000;

    /// <summary>A steady run: one request every <paramref name="everyMs"/>, each taking 1 ms.</summary>
    static List<Sample> Steady(int count, double everyMs) =>
        Enumerable.Range(0, count).Select(i => new Sample { Index = i, OffsetNs = (long)(i * everyMs * Ms), LatencyNs = Ms, StatusCode = 200 }).ToList();

    [Fact]
    public void ThePartialLastWindowIsARateOverTheTimeItLastedNotACollapse()
    {
        // 250 requests 10 ms apart: 2.491 s from the first start to the last answer. 1 s windows: two whole ones
        // and a last one of 50 requests lasting 0.491 s. Over a whole second it would read 50/s, half the run's rate.
        var samples = Steady(250, 10);
        var run = RunStatistics.From(samples);
        var windows = TimeWindows.Build(samples, 1_000 * Ms);

        Assert.Equal(3, windows.Count);
        var last = windows[^1];
        Assert.Equal(run.ElapsedNs, last.EndNs); // it ends with the run
        Assert.Equal(50 / 0.491, last.PerSecond, 6);
        Assert.InRange(last.PerSecond / run.RequestsPerSecond, 0.98, 1.02); // the card's rate, within the rounding of where the run ends
        Assert.All(windows.SkipLast(1), w => Assert.Equal(1_000 * Ms, w.EndNs - w.StartNs));
    }

    [Fact]
    public void ARunInsideOneWindowHasExactlyTheRunsRate()
    {
        var samples = Steady(47, 10); // 0.461 s
        var window = Assert.Single(TimeWindows.Build(samples, 1_000 * Ms));
        Assert.Equal(RunStatistics.From(samples).RequestsPerSecond, window.PerSecond, 9);
    }

    [Fact]
    public void ALastWindowWhoseRequestEndsAfterItStretchesToTheRunsEndSoTheWindowsTileTheRun()
    {
        // 100 requests 10 ms apart, the last one slow (25 ms): it starts at 0.99 s and ends at 1.015 s.
        var samples = Steady(100, 10);
        samples[^1].LatencyNs = 25 * Ms;
        var windows = TimeWindows.Build(samples, 500 * Ms);

        Assert.Equal(RunStatistics.From(samples).ElapsedNs, windows[^1].EndNs);
        Assert.Equal(1_015 * Ms, windows[^1].EndNs);
        var counted = windows.Sum(w => w.PerSecond * (w.EndNs - w.StartNs) / 1e9);
        Assert.Equal(100, counted, 9);
    }

    [Theory]
    [InlineData(470, 20)]    // 0.47 s: 20 ms windows (24 of them) rather than one second and three dots
    [InlineData(5_900, 200)] // just under six 1 s windows: 200 ms
    [InlineData(30, 1)]
    [InlineData(0, 1)]       // never under 1 ms
    public void AShortRunGetsSubSecondWindowsOfOneTwoOrFiveSteps(long elapsedMs, long expectedMs) =>
        Assert.Equal(expectedMs * Ms, TimeWindows.FineLengthNs(elapsedMs * Ms));

    [Fact]
    public void ARunOfSixSecondsOrMoreKeepsWholeSecondWindows() => Assert.Null(TimeWindows.FineLengthNs(6_000 * Ms));

    [Fact]
    public void AShortRunsAnalysisDrawsMoreThanThreePointsOverTime()
    {
        var analysis = SeriesAnalysis.From(null, Steady(48, 10)); // 0.471 s
        var (seconds, windows) = analysis.ChartWindows(analysis.DefaultWindowSeconds);
        Assert.Equal(0.02, seconds, 9);
        Assert.True(windows.Count > 3, $"{windows.Count} windows");
        Assert.Equal(48, windows.Sum(w => w.Count));
        // The table keeps its whole-second window.
        Assert.Single(analysis.At(null).Windows);
    }
}
