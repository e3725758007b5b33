using System.Net;
using System.Net.Sockets;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Examples.TcpConnect;

/// <summary>
/// The example kind's executor: one operation is one TCP connect, closed again at once. Warm-up, the closed and
/// open models, numbering, the clock, the timeout and the sample are the <see cref="LoadDriver"/>'s.
/// </summary>
public sealed class TcpConnectBenchmark : BenchmarkExecutor<TcpConnectParameters>
{
    public override Task ExecuteAsync(RunContext context, TcpConnectParameters parameters, CancellationToken ct) =>
        new LoadDriver(context).RunAsync(parameters, new Connects(new IPEndPoint(IPAddress.Parse(parameters.Host), parameters.Port), parameters.Timeout), ct);

    sealed class Connects(IPEndPoint target, TimeSpan timeout) : ILoadOperation
    {
        public TimeSpan? TimeoutOf(int variant) => timeout;

        public async ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
        {
            using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
            operation.Clock.Start(); // the socket is made: what follows is the connect
            await socket.ConnectAsync(target, ct);
            operation.Clock.Stop(); // closing the socket again is not part of it
            return new Outcome { ConnectTicks = operation.Clock.StoppedAt - operation.Clock.StartedAt };
        }

        /// <summary>A timeout or a refused or reset connect is the target's; anything else ends the run.</summary>
        public Outcome? Failed(Operation operation, Exception exception, bool timedOut) => exception switch
        {
            OperationCanceledException when timedOut => new Outcome { Error = ErrorKind.Timeout },
            SocketException => new Outcome { Error = TransportErrorClassifier.Classify(exception) },
            _ => null,
        };
    }
}
