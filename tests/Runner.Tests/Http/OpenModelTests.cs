using System.Globalization;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// The open model against real targets on 127.0.0.1 whose behaviour is known: one stall of the whole service,
/// a ramp, and a target too slow for the rate. Bounds are generous (a 2-core machine); the precision figures
/// are measured in bench/, not here.
/// </summary>
public sealed class OpenModelTests
{
    const long Ms = 1_000_000;

    [Fact]
    public async Task OneStallOfTheServiceShowsInTheCorrectedLatencyOfEveryoneWhoArrivedDuringIt()
    {
        await using var target = await KestrelTarget.StartAsync();
        await WarmUpAsync(target);

        // ~1 ms answers, except that every answer due between t = 3 s and 4 s is held until t = 4 s.
        var (samples, stats, notes) = await HttpRun.ExecuteWithNotesAsync(new HttpParameters
        {
            Url = target.Url($"/stall?key={Guid.NewGuid():N}&ms=1&at=3000&for=1000").ToString(),
            Model = LoadModel.Open, Rate = 200, DurationSeconds = 6, Concurrency = 8,
        });

        // Every scheduled operation is accounted for: 200 /s × 6 s, due at k / 200 s.
        Assert.InRange(samples.Count, 1199, 1201);
        Assert.Equal(0, stats.Errors);
        var origin = samples[0].OffsetNs;
        Assert.All(samples, s => Assert.InRange(s.OffsetNs - origin - s.Index * 5 * Ms, -1, 1));
        Assert.All(samples, s => Assert.True(s.LagNs >= 0 && s.LatencyNs >= s.LagNs, $"#{s.Index}: lag {s.LagNs}, latency {s.LatencyNs}"));

        // About 200 operations were due during the stall: their corrected latencies spread over 0-1 s.
        Assert.True(stats.Latency!.P99Ns >= 800 * Ms, $"corrected p99 {stats.Latency.P99Ns / 1e6:F1} ms");
        Assert.True(stats.Latency.P50Ns < 20 * Ms, $"corrected p50 {stats.Latency.P50Ns / 1e6:F1} ms");
        var dueDuringStall = samples.Where(s => s.OffsetNs - origin is >= 3050 * Ms and < 3900 * Ms).ToList();
        Assert.All(dueDuringStall, s => Assert.InRange(s.LatencyNs, 4000 * Ms - (s.OffsetNs - origin), 4300 * Ms - (s.OffsetNs - origin)));

        // Only the few in flight when it began were served slowly; the rest waited for a connection.
        Assert.True(stats.ServiceTime!.P99Ns < 200 * Ms, $"service-time p99 {stats.ServiceTime.P99Ns / 1e6:F1} ms");
        Assert.Contains(notes.Warnings, w => w.StartsWith("The target could not keep up with the schedule", StringComparison.Ordinal));
        // The operations queued behind the stall are the target's doing: the pacer's own lag stays small.
        var pacer = notes.Notes.Single(n => n.StartsWith("Open model:", StringComparison.Ordinal));
        Assert.True(double.Parse(Regex.Match(pacer, @"([\d.]+) ms at p99").Groups[1].Value, CultureInfo.InvariantCulture) < 50, pacer);

        // The same stall under the closed model: the connections stop sending, and it is a handful of slow samples.
        var (closed, closedStats, _) = await HttpRun.ExecuteWithNotesAsync(new HttpParameters
        {
            Url = target.Url($"/stall?key={Guid.NewGuid():N}&ms=1&at=3000&for=1000").ToString(),
            DurationSeconds = 6, Concurrency = 8,
        });
        Assert.True(closedStats.Latency!.P99Ns < 200 * Ms, $"closed p99 {closedStats.Latency.P99Ns / 1e6:F1} ms");
        Assert.InRange(closed.Count(s => s.LatencyNs > 500 * Ms), 1, 8);
        Assert.All(closed, s => Assert.Null(s.LagNs));
    }

    [Fact]
    public async Task ARampIsFollowedSecondBySecond()
    {
        await using var target = await KestrelTarget.StartAsync();
        await WarmUpAsync(target);

        // 0 → 500 /s over 4 s, then 500 /s for 2 s: A(t) = 62.5 t² arrivals in the ramp (62.5, 250, 562.5, 1,000 by
        // its seconds), so operations 0-62, 63-249, 250-562, 563-999 are due in its four seconds, 500 in each after.
        var (samples, stats, notes) = await HttpRun.ExecuteWithNotesAsync(new HttpParameters
        {
            Url = target.Url("/ok").ToString(), Model = LoadModel.Open, Rate = 0,
            Stages = [new RateStage(4, 500), new RateStage(2, 500)], Concurrency = 8,
        });

        Assert.Equal(2000, samples.Count);
        Assert.Equal(0, stats.Errors);
        var report = OpenLoadReport.From(samples)!;
        int[] expected = [63, 187, 313, 437, 500, 500];
        Assert.True(report.PerSecond.Count is 6 or 7, $"{report.PerSecond.Count} seconds");
        for (var second = 0; second < expected.Length; second++)
        {
            Assert.Equal(expected[second], report.PerSecond[second].Due);
            Assert.InRange(report.PerSecond[second].Started, expected[second] * 0.95, expected[second] * 1.05);
        }
        Assert.DoesNotContain(notes.Warnings, w => w.Contains("generator itself", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ATargetTooSlowForTheRateFallsFurtherBehindAndTheRunSaysSo()
    {
        await using var target = await KestrelTarget.StartAsync();

        // Two connections to a 20 ms target serve at most 100 /s; 200 /s are due for 3 s.
        var (samples, stats, notes) = await HttpRun.ExecuteWithNotesAsync(new HttpParameters
        {
            Url = target.Url("/delay?ms=20").ToString(), Model = LoadModel.Open, Rate = 200, DurationSeconds = 3, Concurrency = 2,
        });

        Assert.Equal(600, samples.Count);
        Assert.Equal(0, stats.Errors);
        Assert.Contains(notes.Warnings, w => w.StartsWith("The target could not keep up with the schedule", StringComparison.Ordinal));
        Assert.DoesNotContain(notes.Warnings, w => w.Contains("generator itself", StringComparison.Ordinal));

        // Service time stays the target's 20 ms; the wait for a connection grows with every operation behind.
        Assert.InRange(stats.ServiceTime!.P50Ns, 20 * Ms, 30 * Ms);
        double Mean(IEnumerable<Sample> part) => part.Average(s => (double)s.LatencyNs);
        var first = Mean(samples.Take(100));
        var last = Mean(samples.TakeLast(100));
        Assert.True(last > first + 1000 * Ms, $"corrected mean {first / 1e6:F0} ms in the first 100, {last / 1e6:F0} ms in the last 100");
        Assert.True(stats.Lag!.P50Ns > 500 * Ms, $"lag p50 {stats.Lag.P50Ns / 1e6:F0} ms");
        var report = OpenLoadReport.From(samples)!;
        Assert.True(report.Late > 500, $"{report.Late} late");
    }

    [Fact]
    public async Task RequestsAndDurationBothBoundAnOpenRun()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (samples, _, _) = await HttpRun.ExecuteWithNotesAsync(new HttpParameters
        {
            Url = target.Url("/ok").ToString(), Model = LoadModel.Open, Rate = 400, Requests = 150, Concurrency = 4, WarmupRequests = 10,
        });

        // The warm-up goes first, closed; the 150 measured requests follow at 400 /s, numbered on from it.
        Assert.Equal(Enumerable.Range(0, 160), samples.Select(s => s.Index));
        Assert.All(samples.Take(10), s => Assert.True(s.IsWarmup && s.LagNs is null));
        var measured = samples.Skip(10).ToList();
        Assert.All(measured, s => Assert.NotNull(s.LagNs));
        var span = measured[^1].OffsetNs - measured[0].OffsetNs;
        Assert.InRange(span - 149 * 2_500_000L, -1, 1);
    }

    /// <summary>Unmeasured traffic first, so the JIT of this process and the target's is done before the schedule starts.</summary>
    static Task WarmUpAsync(KestrelTarget target) =>
        HttpRun.ExecuteAsync(new HttpParameters { Url = target.Url("/ok").ToString(), DurationSeconds = 1, Concurrency = 8 });
}
