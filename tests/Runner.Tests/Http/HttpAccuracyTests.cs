using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using BenchDashboard.Core.Benchmarks.Http;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>Latency measured against a real Kestrel server on 127.0.0.1 whose delay is known to within µs.</summary>
public class HttpAccuracyTests
{
    const long Ms = 1_000_000;

    const int Attempts = 3;

    [Theory]
    [InlineData(10, 200)]
    [InlineData(50, 100)]
    public async Task SequentialLatencyMatchesTheTargetsKnownDelay(int delayMs, int requests)
    {
        await using var target = await KestrelTarget.StartAsync();
        var url = target.Url($"/delay?ms={delayMs}");
        await WarmUpAsync(url);
        long d = delayMs * Ms;

        // This VM delays ~1 % of wake-ups by ~3.5 ms, for a minimal HttpClient loop as much as for the runner
        // (measured side by side, no GC involved), and after a 50 ms idle Python's time.sleep(0.05) overshoots
        // by 1.3 ms at p99. A p99 of 100-200 samples sits right at that rate, so the tail is judged on the best
        // of up to three attempts, as seed 000's author took the best of ~20 go-wrk runs. Each attempt's p99
        // must be within D + 3 ms, or, where the machine's floor is higher, within 1 ms of the slowest request
        // a minimal client saw against the same target right after it. The median gets the same best of three
        // (within 1 ms of D: one full run here once had every wake-up ~4.5 ms late, median 54.45 ms at D = 50);
        // the minimum is checked every time.
        var attempts = new List<string>();
        for (var attempt = 1; attempt <= Attempts; attempt++)
        {
            var (samples, stats, _) = await HttpRun.ExecuteAsync(new HttpParameters
            {
                Url = url.ToString(), Requests = requests, Concurrency = 1, WarmupRequests = 20,
            });

            Assert.Equal(requests + 20, samples.Count);
            Assert.Equal(requests, stats.Count);
            Assert.Equal(0, stats.Errors);
            var l = stats.Latency!;
            Assert.True(l.MinNs >= d, $"min {l.MinNs} ns is below the server's delay {d} ns");
            Assert.True(l.P50Ns >= d, $"median {l.P50Ns} ns is below the server's delay {d} ns");

            var bound = Math.Max(d + 3 * Ms, await PlainClientMaxAsync(url, requests) + 1 * Ms);
            if (l.P50Ns <= d + 1 * Ms && l.P95Ns <= d + 3 * Ms && l.P99Ns <= bound) return;
            attempts.Add($"attempt {attempt}: p50 {l.P50Ns / 1e6:F3} ms, p95 {l.P95Ns / 1e6:F3} ms, p99 {l.P99Ns / 1e6:F3} ms (bound {bound / 1e6:F3}); slowest " +
                string.Join(", ", samples.OrderByDescending(s => s.LatencyNs).Take(5).Select(s => $"#{s.Index} {s.LatencyNs / 1e6:F3}")));
        }
        Assert.Fail($"p50 ≤ {delayMs} + 1 ms, p95 ≤ {delayMs} + 3 ms and p99 within bound in none of {Attempts} attempts:\n{string.Join("\n", attempts)}");
    }

    /// <summary>The slowest request seen by the simplest possible client: one HttpClient, one request at a time.</summary>
    static async Task<long> PlainClientMaxAsync(Uri url, int requests)
    {
        using var client = new HttpClient();
        long slowest = 0;
        for (var i = 0; i < requests + 5; i++)
        {
            var start = Stopwatch.GetTimestamp();
            using var response = await client.GetAsync(url);
            await response.Content.ReadAsByteArrayAsync();
            if (i >= 5) slowest = Math.Max(slowest, Ticks.ToNanoseconds(Stopwatch.GetTimestamp() - start));
        }
        return slowest;
    }

    /// <summary>
    /// Fresh processes (the client here and the target) start in tier-0 code, and with tiered PGO a hot method
    /// passes an instrumented tier before the JIT recompiles it in the background (about 30 calls each);
    /// measured meanwhile, a few percent of requests are 3-5 ms slow for reasons that have nothing to do with
    /// the target. Two seconds of unmeasured traffic on eight connections (≥ 300 calls even at 50 ms) let that
    /// finish, as a user's warm-up requests would. It hits the measured URL itself: another path of the
    /// target (Task.Delay is used only for longer delays) would still be tiering up during the measurement.
    /// </summary>
    static Task WarmUpAsync(Uri url) =>
        HttpRun.ExecuteAsync(new HttpParameters { Url = url.ToString(), DurationSeconds = 2, Concurrency = 8 });

    [Fact]
    public async Task ConcurrentThroughputObeysLittlesLaw()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (samples, stats, _) = await HttpRun.ExecuteAsync(new HttpParameters
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

        var (samples, stats, _) = await HttpRun.ExecuteAsync(new HttpParameters
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

        var (samples, stats, _) = await HttpRun.ExecuteAsync(new HttpParameters
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

        var (keepAlive, _, _) = await HttpRun.ExecuteAsync(new HttpParameters { Url = target.Url("/ok").ToString(), Requests = 40, Concurrency = 2 });
        var (closing, closingStats, _) = await HttpRun.ExecuteAsync(new HttpParameters { Url = target.Url("/ok").ToString(), Requests = 40, Concurrency = 2, KeepAlive = false });

        Assert.Equal(2, keepAlive.Count(s => s.ConnectNs is not null));
        Assert.Equal(40, closing.Count(s => s.ConnectNs is not null));
        Assert.All(closing, s => Assert.True(s.ConnectNs > 0 && s.ConnectNs < s.HeadersNs && s.HeadersNs <= s.LatencyNs));
        Assert.Equal(40, closingStats.Connect!.Count);
    }

    [Fact]
    public async Task CachingHeadersAreCountedByValue()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (_, _, evidence) = await HttpRun.ExecuteAsync(new HttpParameters { Url = target.Url("/cacheable").ToString(), Requests = 25, Concurrency = 1 });

        Assert.Equal(25, evidence!.Headers["ETag"]["\"v1\""]);
        Assert.Equal(25, evidence.Headers["Cache-Control"]["public, max-age=60"]);
        Assert.False(evidence.Headers.ContainsKey("Expires"));
    }
}
