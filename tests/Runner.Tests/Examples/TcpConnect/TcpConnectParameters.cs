using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Runner.Tests.Examples.TcpConnect;

/// <summary>The example kind's parameters: where to connect, and the load fields every kind shares (<see cref="LoadParameters"/>, inherited: the JSON stays flat).</summary>
public sealed record TcpConnectParameters : LoadParameters
{
    public TcpConnectParameters() : base(timeoutMs: 1_000) { }

    public string Host { get; init; } = "127.0.0.1";
    public int Port { get; init; }
    public int WarmupRequests { get; init; }
    protected override int Warmup => WarmupRequests;
}
