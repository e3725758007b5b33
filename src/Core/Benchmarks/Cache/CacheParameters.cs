using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Benchmarks.Cache;

public enum CacheBackend
{
    /// <summary>An in-process cache: no network, so it is the floor of what the client loop itself costs.</summary>
    Memory,

    /// <summary>Any Redis-protocol server through StackExchange.Redis (Azure Cache for Redis, redis-server, …).</summary>
    Redis,
}

/// <summary>Seed 004's four measurements, in the seed's order. Each is a phase of the run and a series of its samples.</summary>
public enum CachePhase
{
    /// <summary>SET of key i mod keyCount.</summary>
    [JsonStringEnumMemberName("write")] Write,

    /// <summary>GET of one key, again and again.</summary>
    [JsonStringEnumMemberName("read-same")] ReadSame,

    /// <summary>GET of key i mod keyCount: a different key each time, hitting the written ones.</summary>
    [JsonStringEnumMemberName("read-distinct")] ReadDistinct,

    /// <summary>GET of keys that were never written: every read misses.</summary>
    [JsonStringEnumMemberName("read-miss")] ReadMiss,
}

/// <summary>Parameters of a cache benchmark. Names match the JSON API (camelCase).</summary>
public sealed record CacheParameters : ILoadParameters
{
    public CacheBackend Backend { get; init; } = CacheBackend.Memory;

    /// <summary>
    /// For <see cref="CacheBackend.Redis"/>: the <em>name</em> of a connection string in configuration
    /// (<c>ConnectionStrings:NAME</c>: appsettings, user secrets, environment or an App Service connection
    /// string). The string itself never enters parameters, pages, API responses or logs.
    /// </summary>
    public string? Connection { get; init; }

    /// <summary>Phases in the order they run; each is one series of samples.</summary>
    public List<CachePhase> Phases { get; init; } = [CachePhase.Write, CachePhase.ReadSame, CachePhase.ReadDistinct, CachePhase.ReadMiss];

    /// <summary>Operations per phase; exactly one of this and <see cref="DurationSeconds"/> is set.</summary>
    public int? Requests { get; init; }

    /// <summary>Seconds per phase.</summary>
    public int? DurationSeconds { get; init; }

    /// <summary>How many distinct keys writes and distinct reads cycle through.</summary>
    public int KeyCount { get; init; } = 100;

    public int ValueBytes { get; init; } = 16;

    /// <summary>Closed (each worker sends when answered) or open (each phase follows the schedule of <see cref="Rate"/> and <see cref="Stages"/>).</summary>
    public LoadModel Model { get; init; } = LoadModel.Closed;
    public double? Rate { get; init; }
    public List<RateStage>? Stages { get; init; }

    /// <summary>Workers issuing operations one after another; 1 is the seed's sequential loop. In the open model, the most in flight.</summary>
    public int Concurrency { get; init; } = 1;
    public int TimeoutMs { get; init; } = 5_000;

    /// <summary>Keys are named <c>{keyPrefix}:{run id}-{random}:…</c>, so runs never share a key.</summary>
    public string KeyPrefix { get; init; } = "benchdashboard";

    /// <summary>Delete the run's keys afterwards, also after a failure or cancel.</summary>
    public bool Cleanup { get; init; } = true;

    [JsonIgnore]
    public TimeSpan Timeout => TimeSpan.FromMilliseconds(TimeoutMs);
}

public static class CachePhaseNames
{
    /// <summary>The API name of a phase, which is also the name of its series of samples.</summary>
    public static string Name(this CachePhase phase) => phase switch
    {
        CachePhase.Write => "write",
        CachePhase.ReadSame => "read-same",
        CachePhase.ReadDistinct => "read-distinct",
        CachePhase.ReadMiss => "read-miss",
        _ => throw new ArgumentOutOfRangeException(nameof(phase), phase, null),
    };

    public static bool IsRead(this CachePhase phase) => phase != CachePhase.Write;
}
