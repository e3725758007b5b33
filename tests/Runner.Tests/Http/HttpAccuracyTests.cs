using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Processing;
using BenchDashboard.Runner.Http;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>Latency measured against a real Kestrel server on 127.0.0.1 whose delay is known to within µs.</summary>
[Collection(nameof(HttpAccuracyTests))] // both engines' timings, one at a time: run side by side they slow each other
public class HttpAccuracyTests
{
    /// <summary>Runs with the engine under test: asynchronous sends here, blocking ones in <see cref="BlockingHttpAccuracyTests"/>.</summary>
    protected virtual Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct);

    const long Ms = 1_000_000;

    const int Attempts = 3;

    [Theory]
    [InlineData(10, 200)]
    [InlineData(50, 100)]
    public async Task SequentialLatencyIsTheTargetsHoldTimePlusLittle(int delayMs, int requests)
    {
        await using var target = await KestrelTarget.StartAsync();
        var url = target.Url($"/delay?ms={delayMs}&record=true");
        await WarmUpAsync(url);
        await target.TakeHeldAsync();
        long d = delayMs * Ms;

        // Each request is paired with the time the target's handler really held it (the requests go one at a
        // time, so the n-th hold is the n-th request's). On a loaded 2-core machine the target's own wake-up is
        // sometimes late by 3-5 ms, for every request of a run at times (CI once saw p50 53.4 ms at D = 50):
        // that is the target's time, and a correct measurement includes it. What the runner must get right is
        // that no request is measured shorter than the target held it, and that what it adds on top (loopback,
        // Kestrel, the client's own code and wake-ups) is small: p50 ≤ 1 ms, p95 ≤ 3 ms, p99 ≤ 3 ms. This VM
        // also has seconds in which every wake-up after an idle wait is late (one run here: 4.2 ms added at the
        // median for the runner, 13 ms at most for a minimal HttpClient loop right after it) and delays ~1 % of
        // wake-ups by ~3.5 ms at any time. So each bound is raised to what a minimal client added in the same
        // moment (its p50 + 0.5 ms, p95 + 1 ms, maximum + 1 ms) where that is higher, and the verdict is the best
        // of up to three attempts, as seed 000's author took the best of ~20 go-wrk runs.
        var attempts = new List<string>();
        for (var attempt = 1; attempt <= Attempts; attempt++)
        {
            var (samples, stats, _) = await Execute(new HttpParameters
            {
                Url = url.ToString(), Requests = requests, Concurrency = 1, WarmupRequests = 20,
            });
            var held = await target.TakeHeldAsync();

            Assert.Equal(requests + 20, samples.Count);
            Assert.Equal(requests + 20, held.Length);
            Assert.Equal(requests, stats.Count);
            Assert.Equal(0, stats.Errors);
            Assert.True(stats.Latency!.MinNs >= d, $"min {stats.Latency.MinNs} ns is below the server's delay {d} ns");
            var ordered = samples.OrderBy(s => s.Index).ToList();
            for (var i = 0; i < ordered.Count; i++)
                Assert.True(ordered[i].LatencyNs >= held[i], $"request #{i} measured {ordered[i].LatencyNs} ns, shorter than the target held it ({held[i]} ns)");

            var added = ordered.Select((s, i) => (s.Index, Ns: s.LatencyNs - held[i])).Skip(20).ToList();
            var runner = AddedLadder.Of(added.Select(a => a.Ns));
            var plain = await PlainClientAddedAsync(target, url, requests);
            var (p50Bound, p95Bound, p99Bound) = (Math.Max(1 * Ms, plain.P50 + Ms / 2), Math.Max(3 * Ms, plain.P95 + 1 * Ms), Math.Max(3 * Ms, plain.Max + 1 * Ms));
            if (runner.P50 <= p50Bound && runner.P95 <= p95Bound && runner.P99 <= p99Bound) return;
            attempts.Add($"attempt {attempt}: added {runner} (bounds p50 {p50Bound / 1e6:F3}, p95 {p95Bound / 1e6:F3}, p99 {p99Bound / 1e6:F3}); minimal client added {plain}; latency p50 {stats.Latency.P50Ns / 1e6:F3} ms, " +
                $"held p50 {Percentile.NearestRank(held.Skip(20).Order().ToList(), 500) / 1e6:F3} ms; most added " +
                string.Join(", ", added.OrderByDescending(a => a.Ns).Take(5).Select(a => $"#{a.Index} {a.Ns / 1e6:F3}")));
        }
        Assert.Fail($"what the runner added was within bounds in none of {Attempts} attempts:\n{string.Join("\n", attempts)}");
    }

    /// <summary>What the simplest possible client (one HttpClient, one request at a time) added to the target's hold times.</summary>
    static async Task<AddedLadder> PlainClientAddedAsync(KestrelTarget target, Uri url, int requests)
    {
        using var client = new HttpClient();
        var latencies = new List<long>();
        for (var i = 0; i < requests + 5; i++)
        {
            var start = Stopwatch.GetTimestamp();
            using var response = await client.GetAsync(url);
            await response.Content.ReadAsByteArrayAsync();
            latencies.Add(Ticks.ToNanoseconds(Stopwatch.GetTimestamp() - start));
        }
        var held = await target.TakeHeldAsync();
        return AddedLadder.Of(latencies.Zip(held).Skip(5).Select(p => p.First - p.Second));
    }

    /// <summary>Nearest-rank p50, p95, p99 and the maximum of what a client added to the target's hold time, in ns.</summary>
    sealed record AddedLadder(long P50, long P95, long P99, long Max)
    {
        public static AddedLadder Of(IEnumerable<long> addedNs)
        {
            var sorted = addedNs.Order().ToList();
            return new(Percentile.NearestRank(sorted, 500), Percentile.NearestRank(sorted, 950), Percentile.NearestRank(sorted, 990), sorted[^1]);
        }

        public override string ToString() => $"p50 {P50 / 1e6:F3}, p95 {P95 / 1e6:F3}, p99 {P99 / 1e6:F3}, max {Max / 1e6:F3} ms";
    }

    /// <summary>
    /// Fresh processes (the client here and the target) start in tier-0 code, and with tiered PGO a hot method
    /// passes an instrumented tier before the JIT recompiles it in the background (about 30 calls each);
    /// measured meanwhile, a few percent of requests are 3-5 ms slow for reasons that have nothing to do with
    /// the target. Two seconds of unmeasured traffic on eight connections (≥ 300 calls even at 50 ms) let that
    /// finish, as a user's warm-up requests would. It hits the measured URL itself: another path of the
    /// target (Task.Delay is used only for longer delays) would still be tiering up during the measurement.
    /// </summary>
    Task WarmUpAsync(Uri url) =>
        Execute(new HttpParameters { Url = url.ToString(), DurationSeconds = 2, Concurrency = 8 });

    [Fact]
    public async Task ConcurrentThroughputObeysLittlesLaw()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (samples, stats, _) = await Execute(new HttpParameters
        {
            Url = target.Url("/delay?ms=10&precise=false").ToString(), Requests = 1600, Concurrency = 16, WarmupRequests = 32,
        });

        Assert.Equal(1632, samples.Count);
        Assert.Equal(0, stats.Errors);
        var inFlight = stats.RequestsPerSecond * stats.Latency!.MeanNs / 1e9;
        Assert.InRange(inFlight, 16 * 0.95, 16 * 1.05);
        Assert.Equal(16, samples.Select(s => s.Connection).Distinct().Count());
    }

    [Fact]
    public async Task EveryIssuedRequestIsOneSampleWithAUniqueIndex()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (samples, stats, _) = await Execute(new HttpParameters
        {
            Url = target.Url("/ok").ToString(), Requests = 997, Concurrency = 7, WarmupRequests = 13,
        });

        Assert.Equal(Enumerable.Range(0, 1010), samples.Select(s => s.Index));
        Assert.Equal(13, samples.Count(s => s.IsWarmup));
        Assert.All(samples.Take(13), s => Assert.True(s.IsWarmup)); // warm-up takes the first indexes
        Assert.Equal(997, stats.Count);
        Assert.Equal(997 * 64, stats.TotalBytes);
    }

    [Fact]
    public async Task ADurationRunStopsOnTimeAndNumbersItsRequestsContiguously()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (samples, stats, _) = await Execute(new HttpParameters
        {
            Url = target.Url("/delay?ms=5").ToString(), DurationSeconds = 1, Concurrency = 2,
        });

        Assert.Equal(Enumerable.Range(0, samples.Count), samples.Select(s => s.Index));
        // The deadline is set just before the connections' first requests are scheduled, so the measured span
        // can fall short of the duration by that scheduling time.
        Assert.InRange(stats.ElapsedNs, 990 * Ms, 2_000 * Ms);
        Assert.InRange(stats.Count, 100, 420); // two connections × ~1 s / ~5 ms
    }

    [Fact]
    public async Task ConnectTimeIsRecordedExactlyForRequestsThatOpenedAConnection()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (keepAlive, _, _) = await Execute(new HttpParameters { Url = target.Url("/ok").ToString(), Requests = 40, Concurrency = 2 });
        var (closing, closingStats, _) = await Execute(new HttpParameters { Url = target.Url("/ok").ToString(), Requests = 40, Concurrency = 2, KeepAlive = false });

        Assert.Equal(2, keepAlive.Count(s => s.ConnectNs is not null));
        Assert.Equal(40, closing.Count(s => s.ConnectNs is not null));
        Assert.All(closing, s => Assert.True(s.ConnectNs > 0 && s.ConnectNs < s.HeadersNs && s.HeadersNs <= s.LatencyNs));
        Assert.Equal(40, closingStats.Connect!.Count);
    }

    [Fact]
    public async Task CachingHeadersAreCountedByValue()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (_, _, evidence) = await Execute(new HttpParameters { Url = target.Url("/cacheable").ToString(), Requests = 25, Concurrency = 1 });

        Assert.Equal(25, evidence!.Headers["ETag"]["\"v1\""]);
        Assert.Equal(25, evidence.Headers["Cache-Control"]["public, max-age=60"]);
        Assert.False(evidence.Headers.ContainsKey("Expires"));
    }
}

/// <summary>The same faults and figures with each connection's requests sent with blocking calls on a thread of its own.</summary>
[Collection(nameof(HttpAccuracyTests))]
public sealed class BlockingHttpAccuracyTests : HttpAccuracyTests
{
    protected override Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct, blockingUpTo: 1024);
}

/// <summary>The same figures from SocketsHttpHandler, which sends what the lean engine does not speak (framing headers set by the user).</summary>
[Collection(nameof(HttpAccuracyTests))]
public sealed class SocketsHttpAccuracyTests : HttpAccuracyTests
{
    protected override Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct, engine: HttpEngine.Sockets);
}
