using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

public sealed class LiveRunStatsTests
{
    static Sample Sample(int index, long latencyNs, ErrorKind error = ErrorKind.None, bool warmup = false) =>
        new() { Index = index, LatencyNs = latencyNs, Error = error, IsWarmup = warmup };

    [Fact]
    public async Task SecondsCloseAsTimePassesAndAQuietSecondIsARowOfZeros()
    {
        var live = new LiveRunStats();
        live.Add(Sample(0, 5_000_000, warmup: true));
        for (var i = 1; i <= 100; i++) live.Add(Sample(i, i * 1_000_000L, i % 10 == 0 ? ErrorKind.HttpStatus : ErrorKind.None));
        live.Add(Sample(101, 0, ErrorKind.ConnectionRefused));
        await Task.Delay(2_100); // second 0 closes, second 1 passes with nothing completed

        var snapshot = live.Snapshot();

        Assert.Equal((101, 1, 11), (snapshot.Measured, snapshot.Warmup, snapshot.Errors));
        Assert.Equal(new Dictionary<ErrorKind, int> { [ErrorKind.HttpStatus] = 10, [ErrorKind.ConnectionRefused] = 1 }, snapshot.ErrorsByKind);
        Assert.True(snapshot.Seconds.Count >= 2, $"{snapshot.Seconds.Count} seconds");
        var first = snapshot.Seconds[0];
        Assert.Equal((0, 101, 11), (first.Second, first.Count, first.Errors));
        // Refused has no latency: the 100 answered ones are ranked (50 ms median, within the live histogram's 1/1024).
        Assert.InRange(first.P50Ns!.Value, 50_000_000, 50_000_000 + 50_000_000 / 1024);
        Assert.Equal(new LiveSecond(1, 0, 0, null, null, null), snapshot.Seconds[1]);
        Assert.Equal(100_000_000, snapshot.MaxNs);
        Assert.True(snapshot.ElapsedNs >= 2_000_000_000);
    }

    [Fact]
    public void TheChartKeepsAtMostTwoThousandPointsSpreadOverTheWholeRun()
    {
        var live = new LiveRunStats();
        for (var i = 0; i < 100_000; i++) live.Add(Sample(i, 1_000));

        var points = live.Snapshot().Points;

        Assert.InRange(points.Count, 1_000, 2_000);
        Assert.Equal(0, points[0].Index);
        Assert.True(points[^1].Index > 95_000, $"the last point is #{points[^1].Index}");
        var strides = points.Zip(points.Skip(1), (a, b) => b.Index - a.Index).Distinct().ToList();
        Assert.Single(strides); // evenly spaced
    }

    [Fact]
    public void EachVariantHasItsOwnLiveFiguresAndLateStartsAreCounted()
    {
        var live = new LiveRunStats();
        // The slow variant's first answer (#1) arrives before the fast one's (#0): the rows keep the variants' order.
        foreach (var i in new[] { 1, 0 }.Concat(Enumerable.Range(2, 198)))
        {
            var fast = i % 2 == 0;
            live.Add(new Sample
            {
                Index = i, Series = fast ? "fast" : "slow", LatencyNs = fast ? 2_000_000 : 20_000_000,
                Error = !fast && i % 10 == 1 ? ErrorKind.HttpStatus : ErrorKind.None,
                LagNs = i < 30 ? 5_000_000 : 100_000, // the first 30 started 5 ms late; the rest well within 1 ms
            });
        }

        var snapshot = live.Snapshot();

        Assert.Equal(30, snapshot.Late);
        Assert.Equal(["fast", "slow"], snapshot.Series!.Select(s => s.Name));
        var (fastOne, slowOne) = (snapshot.Series![0], snapshot.Series[1]);
        Assert.Equal((100, 0), (fastOne.Measured, fastOne.Errors));
        Assert.Equal((100, 20), (slowOne.Measured, slowOne.Errors)); // i = 1, 11, … 191
        // Each its own median (within the live histogram's 1/1024), not the blend's.
        Assert.InRange(fastOne.P50Ns!.Value, 2_000_000, 2_000_000 + 2_000_000 / 1024);
        Assert.InRange(slowOne.P99Ns!.Value, 20_000_000, 20_000_000 + 20_000_000 / 1024);
    }

    [Fact]
    public void AJourneysIterationsAreCountedApartFromItsRequests()
    {
        var live = new LiveRunStats(new Core.Benchmarks.SeriesBasis(false, false, Iterations: "iteration").IsIterations);
        var index = 0;
        void Iteration(bool warmup, bool failed)
        {
            // Numbered as the engine does, the iteration first: its rows still come after the steps'.
            var own = index++;
            live.Add(new Sample { Index = index++, Series = "login", LatencyNs = 2_000_000, IsWarmup = warmup });
            live.Add(new Sample { Index = index++, Series = "order", LatencyNs = 3_000_000, IsWarmup = warmup, Error = failed ? ErrorKind.HttpStatus : ErrorKind.None });
            live.Add(new Sample { Index = own, Series = "iteration", LatencyNs = 5_000_000, IsWarmup = warmup, Error = failed ? ErrorKind.HttpStatus : ErrorKind.None });
        }
        Iteration(warmup: true, failed: false);
        for (var i = 0; i < 100; i++) Iteration(warmup: false, failed: i % 10 == 0);

        var snapshot = live.Snapshot();

        // The run's figures are its 200 requests (and 2 warm-up ones); its 100 iterations are said apart.
        Assert.Equal((200, 2, 10, 100), (snapshot.Measured, snapshot.Warmup, snapshot.Errors, snapshot.Iterations));
        Assert.Equal(3_000_000, snapshot.MaxNs); // no iteration's 5 ms among the requests'
        Assert.DoesNotContain(snapshot.Points, p => p.LatencyNs == 5_000_000);
        Assert.Equal(["login", "order", "iteration"], snapshot.Series!.Select(s => s.Name));
        var iteration = snapshot.Series![2];
        Assert.Equal((100, 10), (iteration.Measured, iteration.Errors));
        Assert.InRange(iteration.P50Ns!.Value, 5_000_000, 5_000_000 + 5_000_000 / 1024);
    }

    [Fact]
    public void EachVariantsIterationsComeAfterItsOwnSteps()
    {
        var live = new LiveRunStats(new Core.Benchmarks.SeriesBasis(false, false, Iterations: "iteration").IsIterations);
        var index = 0;
        foreach (var variant in new[] { "A", "B" })
            foreach (var series in new[] { "iteration", "login", "order" })
                live.Add(new Sample { Index = index++, Series = $"{variant}/{series}", LatencyNs = 1_000_000 });

        Assert.Equal(["A/login", "A/order", "A/iteration", "B/login", "B/order", "B/iteration"], live.Snapshot().Series!.Select(s => s.Name));
    }

    [Fact]
    public void ARunWithoutVariantsHasNoSeriesAndAClosedOneNoLateStarts()
    {
        var live = new LiveRunStats();
        for (var i = 0; i < 10; i++) live.Add(Sample(i, 1_000_000));
        var snapshot = live.Snapshot();
        Assert.Null(snapshot.Series);
        Assert.Equal(0, snapshot.Late);
        Assert.Null(snapshot.Iterations);
    }
}
