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

/// <summary>Faults of a target are classified samples; the run always completes.</summary>
public class HttpFaultTests
{
    /// <summary>Runs with the engine under test: the default (lean for http://) with asynchronous sends here, the others in the subclasses below.</summary>
    protected virtual Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct);

    [Fact]
    public async Task AClosedPortIsConnectionRefused()
    {
        var (samples, stats, _) = await Execute(new HttpParameters { Url = FaultyTcpTarget.ClosedPortUrl().ToString(), Requests = 5 });

        Assert.Equal(5, samples.Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.ConnectionRefused, s.Error));
        Assert.Equal(5, stats.Errors);
        Assert.Equal(5, stats.Classes.Errors);
        Assert.Null(stats.Latency);
    }

    [Fact]
    public async Task AResetMidResponseIsConnectionReset()
    {
        await using var target = new FaultyTcpTarget(Fault.ResetMidResponse);

        var (samples, stats, _) = await Execute(new HttpParameters { Url = target.Url.ToString(), Requests = 4 });

        Assert.Equal(4, samples.Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.ConnectionReset, s.Error));
        Assert.All(samples, s => Assert.Equal(200, s.StatusCode)); // headers arrived before the reset
        Assert.Equal(4, stats.ErrorsByKind[ErrorKind.ConnectionReset]);
    }

    [Fact]
    public async Task ABodyThatStallsPastTheTimeoutIsATimeoutWhenTheTimeoutFires()
    {
        await using var target = new FaultyTcpTarget(Fault.StallMidBody);

        var (samples, stats, _) = await Execute(new HttpParameters { Url = target.Url.ToString(), Requests = 3, TimeoutMs = 300 });

        Assert.Equal(3, samples.Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.Timeout, s.Error));
        // Ended when the timeout fires, not after the client's drain of the rest of the body (up to 2 s more).
        Assert.All(samples, s => Assert.InRange(s.LatencyNs, 285_000_000, 1_500_000_000));
        Assert.Equal(3, stats.ErrorsByKind[ErrorKind.Timeout]);
    }

    [Fact]
    public async Task AStallPastTheTimeoutIsATimeoutAndDoesNotHangTheRun()
    {
        await using var target = new FaultyTcpTarget(Fault.Stall);
        var clock = Stopwatch.StartNew();

        var (samples, stats, _) = await Execute(new HttpParameters { Url = target.Url.ToString(), Requests = 3, TimeoutMs = 300 });

        Assert.Equal(3, samples.Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.Timeout, s.Error));
        // .NET timers count in coarse ticks of the system clock and may fire a few ms early.
        Assert.All(samples, s => Assert.InRange(s.LatencyNs, 285_000_000, 3_000_000_000));
        Assert.Equal(3, stats.ErrorsByKind[ErrorKind.Timeout]);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task A500IsAnHttpErrorWhoseLatencyStillCounts()
    {
        await using var target = await KestrelTarget.StartAsync();

        var (samples, stats, _) = await Execute(new HttpParameters { Url = target.Url("/status?code=500").ToString(), Requests = 6 });

        Assert.All(samples, s => Assert.Equal((ErrorKind.HttpStatus, 500), (s.Error, s.StatusCode)));
        Assert.Equal(6, stats.Errors);
        Assert.Equal(6, stats.Classes.Status5xx);
        Assert.Equal(6, stats.Latency!.Count);
    }

    [Fact]
    public async Task CancellingARunStopsItPromptly()
    {
        await using var target = await KestrelTarget.StartAsync();
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));
        var clock = Stopwatch.StartNew();

        // 1,000 requests of 20 ms on two connections would take 10 s.
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            Execute(new HttpParameters { Url = target.Url("/delay?ms=20").ToString(), Requests = 1000, Concurrency = 2 }, cancel.Token));
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"took {clock.Elapsed}");
    }
}

/// <summary>The same faults and figures with each connection's requests sent with blocking calls on a thread of its own.</summary>
public sealed class BlockingHttpFaultTests : HttpFaultTests
{
    protected override Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct, blockingUpTo: 1024);
}

/// <summary>The same faults through SocketsHttpHandler, which sends what the lean engine does not speak (framing headers set by the user).</summary>
public sealed class SocketsHttpFaultTests : HttpFaultTests
{
    protected override Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct, engine: HttpEngine.Sockets);
}

/// <summary>The same faults through SocketsHttpHandler with blocking sends.</summary>
public sealed class SocketsBlockingHttpFaultTests : HttpFaultTests
{
    protected override Task<(List<Sample> Samples, RunStatistics Stats, CachingEvidence? Evidence)> Execute(HttpParameters parameters, CancellationToken ct = default) =>
        HttpRun.ExecuteAsync(parameters, ct, blockingUpTo: 1024, engine: HttpEngine.Sockets);
}
