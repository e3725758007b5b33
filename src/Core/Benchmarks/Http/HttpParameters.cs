using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Benchmarks.Http;

/// <summary>Parameters of an HTTP latency benchmark. Names match the JSON API (camelCase).</summary>
public sealed record HttpParameters : ILoadParameters
{
    public string Url { get; init; } = "";
    public string Method { get; init; } = "GET";
    public Dictionary<string, string> Headers { get; init; } = new();
    public string? Body { get; init; }

    /// <summary>Measured requests to issue; exactly one of this and <see cref="DurationSeconds"/> is set.</summary>
    public int? Requests { get; init; }
    public int? DurationSeconds { get; init; }

    /// <summary>Closed (each connection sends when answered) or open (requests start on a schedule: <see cref="Rate"/>, <see cref="Stages"/>).</summary>
    public LoadModel Model { get; init; } = LoadModel.Closed;
    public double? Rate { get; init; }
    public List<RateStage>? Stages { get; init; }

    /// <summary>Connections, each issuing requests one after another (like wrk/ab -c); in the open model, the most in flight.</summary>
    public int Concurrency { get; init; } = 1;
    public bool KeepAlive { get; init; } = true;
    public int TimeoutMs { get; init; } = 10_000;

    /// <summary>Requests sent before measurement starts; stored, flagged, excluded from statistics.</summary>
    public int WarmupRequests { get; init; }

    [JsonIgnore]
    public TimeSpan Timeout => TimeSpan.FromMilliseconds(TimeoutMs);
}
