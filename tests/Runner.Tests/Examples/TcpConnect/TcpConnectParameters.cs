using System.Text.Json.Serialization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Runner.Tests.Examples.TcpConnect;

/// <summary>The example kind's parameters: where to connect, and the load fields every kind shares (<see cref="ILoadParameters"/>).</summary>
public sealed record TcpConnectParameters : ILoadParameters
{
    public string Host { get; init; } = "127.0.0.1";
    public int Port { get; init; }
    public int TimeoutMs { get; init; } = 1_000;

    public LoadModel Model { get; init; } = LoadModel.Closed;
    public double? Rate { get; init; }
    public List<RateStage>? Stages { get; init; }
    public int? Requests { get; init; }
    public int? DurationSeconds { get; init; }
    public int Concurrency { get; init; } = 1;
    public int WarmupRequests { get; init; }

    [JsonIgnore]
    public TimeSpan Timeout => TimeSpan.FromMilliseconds(TimeoutMs);
}
