using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Examples.TcpConnect;

/// <summary>
/// The example kind's executor: one operation is one TCP connect, closed again at once. Warm-up, the closed and
/// open models, numbering and the clock are the <see cref="LoadDriver"/>'s.
/// </summary>
public sealed class TcpConnectBenchmark : BenchmarkExecutor<TcpConnectParameters>
{

    public override Task ExecuteAsync(RunContext context, TcpConnectParameters parameters, CancellationToken ct) =>
        new LoadDriver(context).RunAsync(parameters, new Connects(new IPEndPoint(IPAddress.Parse(parameters.Host), parameters.Port), parameters.Timeout), ct);

    sealed class Connects(IPEndPoint target, TimeSpan timeoutAfter) : ILoadOperation
    {
        public async ValueTask<Sample> OperateAsync(Operation operation, CancellationToken ct)
        {
            using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
            var sample = operation.Sample();
            var start = Stopwatch.GetTimestamp();
            operation.Started(sample, start);
            timeout.CancelAfter(timeoutAfter);
            try
            {
                await socket.ConnectAsync(target, timeout.Token);
                sample.ConnectNs = Ticks.ToNanoseconds(Stopwatch.GetTimestamp() - start);
            }
            catch (OperationCanceledException) when (ct.IsCancellationRequested)
            {
                throw; // the run was stopped: not a fault of the target
            }
            catch (OperationCanceledException)
            {
                sample.Error = ErrorKind.Timeout;
            }
            catch (SocketException ex)
            {
                sample.Error = TransportErrorClassifier.Classify(ex);
            }
            sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
            return sample;
        }
    }
}
