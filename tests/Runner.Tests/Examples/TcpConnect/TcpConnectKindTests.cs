using System.Net;
using System.Net.Sockets;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;

namespace BenchDashboard.Runner.Tests.Examples.TcpConnect;

/// <summary>The example kind end to end through the real runner: queued and validated, claimed, driven, stored.</summary>
public class TcpConnectKindTests
{
    [Fact]
    public async Task AKindOfItsOwnFolderAndOneRegistrationLineRunsThroughTheRunner()
    {
        using var listener = new Listener();
        await using var host = await RunnerHost.CreateAsync(services: s => s.AddBenchmarkKind<TcpConnectKind, TcpConnectBenchmark>());
        await host.Host.StartAsync();

        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new TcpConnectParameters { Port = listener.Port, Requests = 60, Concurrency = 3, WarmupRequests = 6 }, null, default));
        var run = await host.UntilFinalAsync(runId);
        var samples = await host.SamplesAsync(runId);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(TcpConnectKind.KindName, run.Kind);
        // The driver's warm-up first, then the count; numbered without gaps in the order they started.
        Assert.Equal(Enumerable.Range(0, 66), samples.Select(s => s.Index));
        Assert.All(samples.Take(6), s => Assert.True(s.IsWarmup));
        Assert.All(samples.Skip(6), s => Assert.False(s.IsWarmup));
        Assert.Equal([0, 1, 2], samples.Select(s => s.Connection).Distinct().Order());
        Assert.All(samples, s =>
        {
            Assert.Equal(ErrorKind.None, s.Error);
            Assert.NotNull(s.ConnectNs);
            Assert.InRange(s.ConnectNs!.Value, 1, s.LatencyNs);
            Assert.Null(s.LagNs);
        });
    }

    [Fact]
    public async Task TheExampleKindGetsTheOpenModelFromTheDriverToo()
    {
        using var listener = new Listener();
        await using var host = await RunnerHost.CreateAsync(services: s => s.AddBenchmarkKind<TcpConnectKind, TcpConnectBenchmark>());
        await host.Host.StartAsync();

        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new TcpConnectParameters { Port = listener.Port, Model = LoadModel.Open, Rate = 200, Requests = 40, Concurrency = 4 }, null, default));
        var run = await host.UntilFinalAsync(runId);
        var samples = await host.SamplesAsync(runId);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(40, samples.Count);
        // Each placed at its due time, k / 200 s after the first, and its latency counted from there.
        var origin = samples[0].OffsetNs;
        Assert.All(samples, s => Assert.InRange(s.OffsetNs - origin - s.Index * 5_000_000L, -1, 1));
        Assert.All(samples, s => Assert.True(s.LagNs >= 0 && s.LatencyNs >= s.LagNs, $"#{s.Index}: lag {s.LagNs}, latency {s.LatencyNs}"));
    }

    [Fact]
    public async Task ARefusedConnectIsASampleWithItsErrorAndTheRunCompletes()
    {
        int closedPort;
        using (var probe = new Listener()) closedPort = probe.Port; // free again once the listener is gone
        await using var host = await RunnerHost.CreateAsync(services: s => s.AddBenchmarkKind<TcpConnectKind, TcpConnectBenchmark>());
        await host.Host.StartAsync();

        var runId = await host.EnqueueAsync(q => q.EnqueueAsync(new TcpConnectParameters { Port = closedPort, Requests = 5 }, null, default));
        var run = await host.UntilFinalAsync(runId);
        var samples = await host.SamplesAsync(runId);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(5, samples.Count);
        Assert.All(samples, s => Assert.Equal(ErrorKind.ConnectionRefused, s.Error));
    }

    [Fact]
    public async Task TheKindsValidatorRefusesATargetOffThisMachine()
    {
        await using var host = await RunnerHost.CreateAsync(services: s => s.AddBenchmarkKind<TcpConnectKind, TcpConnectBenchmark>());

        var result = await host.WithQueueAsync(q => q.EnqueueAsync(new TcpConnectParameters { Host = "192.0.2.1", Port = 80, Requests = 5 }, null, default));

        Assert.False(result.IsValid);
        Assert.Contains("host", result.Errors.Keys);
    }

    /// <summary>A loopback listener that accepts every connection and closes it.</summary>
    sealed class Listener : IDisposable
    {
        readonly TcpListener listener = new(IPAddress.Loopback, 0);
        readonly CancellationTokenSource stop = new();

        public Listener()
        {
            listener.Start(512);
            _ = Task.Run(async () =>
            {
                try
                {
                    while (true) (await listener.AcceptSocketAsync(stop.Token)).Dispose();
                }
                catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
                {
                }
            });
        }

        public int Port => ((IPEndPoint)listener.LocalEndpoint).Port;

        public void Dispose()
        {
            stop.Cancel();
            listener.Stop();
        }
    }
}
