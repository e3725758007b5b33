using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>Adding from many threads while snapshots are taken, and what adding costs in memory when no snapshot comes.</summary>
public sealed class LiveRunStatsConcurrencyTests
{
    const int Threads = 4, PerThread = 60_000;

    static Sample Sample(int thread, int i) => new()
    {
        Index = thread * PerThread + i,
        Series = i % 2 == 0 ? "even" : "odd",
        LatencyNs = 50_000 + (long)i * 7_919 % 1_000_000 * 20,
        Error = i % 97 == 0 ? ErrorKind.HttpStatus : i % 101 == 0 ? ErrorKind.Timeout : ErrorKind.None,
        LagNs = i % 50 == 0 ? 5_000_000 : 0,
    };

    [Fact]
    public async Task ConcurrentAddsAddUpExactlyAndEverySnapshotIsInOrder()
    {
        var clock = new ScriptedClock();
        var live = new LiveRunStats(clock.Read);
        var adders = Enumerable.Range(0, Threads).Select(thread => Task.Factory.StartNew(() =>
        {
            for (var i = 0; i < PerThread; i++) live.Add(Sample(thread, i));
        }, TaskCreationOptions.LongRunning)).ToArray();
        var (snapshots, lastMeasured, advanced) = (0, 0, 0.0);
        while (!adders.All(a => a.IsCompleted) || snapshots < 10)
        {
            var snapshot = live.Snapshot();
            AssertInOrder(snapshot);
            Assert.True(snapshot.Measured >= lastMeasured, $"measured went from {lastMeasured} to {snapshot.Measured}");
            lastMeasured = snapshot.Measured;
            snapshots++;
            // Seconds close on both sides: while adding and in snapshots (at most 90 s, so every row is kept).
            if (advanced < 90) clock.Advance(0.013);
            advanced += 0.013;
        }
        await Task.WhenAll(adders);
        clock.Advance(1);

        var final = live.Snapshot();

        // The same samples added one by one on one thread, all in one second: the same run and series figures.
        var reference = new LiveRunStatsBefore(clock.Read);
        for (var thread = 0; thread < Threads; thread++)
            for (var i = 0; i < PerThread; i++) reference.Add(Sample(thread, i));
        var expected = reference.Snapshot();
        Assert.Equal(Threads * PerThread, final.Measured);
        Assert.Equal((expected.Errors, expected.Late), (final.Errors, final.Late));
        Assert.Equal(expected.ErrorsByKind.OrderBy(k => k.Key), final.ErrorsByKind.OrderBy(k => k.Key));
        Assert.Equal((expected.P50Ns, expected.P95Ns, expected.P99Ns, expected.MaxNs), (final.P50Ns, final.P95Ns, final.P99Ns, final.MaxNs));
        Assert.Equal(expected.Series, final.Series);
        Assert.Equal(final.Measured, final.Seconds.Sum(s => s.Count));
        Assert.Equal(final.Errors, final.Seconds.Sum(s => s.Errors));
        Assert.True(snapshots >= 10, $"{snapshots} snapshots");
    }

    static void AssertInOrder(LiveSnapshot snapshot)
    {
        AssertOrdered(snapshot.P50Ns, snapshot.P95Ns, snapshot.P99Ns, snapshot.MaxNs);
        foreach (var series in snapshot.Series ?? []) AssertOrdered(series.P50Ns, series.P95Ns, series.P99Ns, null);
        foreach (var second in snapshot.Seconds) AssertOrdered(second.P50Ns, second.P95Ns, second.P99Ns, null);
        Assert.True(snapshot.Seconds.Zip(snapshot.Seconds.Skip(1)).All(pair => pair.First.Second < pair.Second.Second), "seconds out of order");
        Assert.True(snapshot.Seconds.Sum(s => s.Count) <= snapshot.Measured);
        Assert.Equal(snapshot.Measured, snapshot.Series!.Sum(s => s.Measured));
    }

    static void AssertOrdered(long? p50, long? p95, long? p99, long? max)
    {
        if (p50 is null) return;
        Assert.True(p50 <= p95 && p95 <= p99 && (max is null || p99 <= max), $"p50 {p50}, p95 {p95}, p99 {p99}, max {max}");
    }

    [Fact]
    public void AddingAllocatesNothingEvenWhenNoSnapshotComesForAnHour()
    {
        var clock = new ScriptedClock();
        var live = new LiveRunStats(clock.Read);
        var samples = Enumerable.Range(0, 1_000).Select(i => Sample(0, i)).ToArray();
        // The first seconds, with heartbeats: both series seen, the spares made.
        for (var s = 0; s < 5; s++)
        {
            foreach (var sample in samples) live.Add(sample);
            clock.Advance(1);
            live.Snapshot();
        }

        // The JIT may allocate on a thread whose call makes it recompile a method (starting its worker), once;
        // anything this code allocated would come back every hour. So: hours until one allocates nothing.
        var adding = new List<long>();
        while (adding.Count < 5 && adding.LastOrDefault(-1) != 0)
        {
            Thread.Sleep(adding.Count * 200);
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var s = 0; s < 3_600; s++)
            {
                for (var i = 0; i < 20; i++) live.Add(samples[(s * 20 + i) % samples.Length]);
                clock.Advance(1);
            }
            adding.Add(GC.GetAllocatedBytesForCurrentThread() - before);
        }

        Assert.True(adding[^1] == 0, $"bytes allocated by an hour of adding: {string.Join(", ", adding)}");
        // Snapshots after that make no more 304 KiB histograms: the seconds' ones were reused throughout.
        for (var s = 0; s < 5; s++)
        {
            var start = GC.GetAllocatedBytesForCurrentThread();
            var snapshot = live.Snapshot();
            Assert.InRange(GC.GetAllocatedBytesForCurrentThread() - start, 0, 200_000);
            Assert.Equal(LiveSnapshot.MaxSeconds, snapshot.Seconds.Count);
            foreach (var sample in samples) live.Add(sample);
            clock.Advance(1);
        }
    }
}
