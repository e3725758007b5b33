using System.Text.Json.Serialization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.Cache;

public enum CacheBackend
{
    /// <summary>An in-process cache: no network, so it is the floor of what the client loop itself costs.</summary>
    Memory,

    /// <summary>Any Redis-protocol server through StackExchange.Redis (Azure Cache for Redis, redis-server, …).</summary>
    Redis,
}

/// <summary>The four cache measurements, in the source document's order. Each is a phase of the run and a series of its samples.</summary>
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
public sealed record CacheParameters : LoadParameters
{
    public CacheParameters() : base(timeoutMs: 5_000) { }

    public CacheBackend Backend { get; init; } = CacheBackend.Memory;

    /// <summary>
    /// For <see cref="CacheBackend.Redis"/>: the <em>name</em> of a connection string in configuration
    /// (<c>ConnectionStrings:NAME</c>: appsettings, user secrets, environment or an App Service connection
    /// string). The string itself never enters parameters, pages, API responses or logs.
    /// </summary>
    public string? Connection { get; init; }

    /// <summary>Phases in the order they run; each is one series of samples.</summary>
    public List<CachePhase> Phases { get; init; } = [CachePhase.Write, CachePhase.ReadSame, CachePhase.ReadDistinct, CachePhase.ReadMiss];

    // The load fields are LoadParameters': requests and durationSeconds are per phase (each phase runs the
    // whole load, open or closed), concurrency is the workers issuing operations (1: the seed's loop).

    /// <summary>How many distinct keys writes and distinct reads cycle through.</summary>
    public int KeyCount { get; init; } = 100;

    public int ValueBytes { get; init; } = 16;

    /// <summary>Keys are named <c>{keyPrefix}:{run id}-{random}:…</c>, so runs never share a key.</summary>
    public string KeyPrefix { get; init; } = "benchdashboard";

    /// <summary>Delete the run's keys afterwards, also after a failure or cancel.</summary>
    public bool Cleanup { get; init; } = true;

    /// <summary>
    /// 2 to 8 variants of these parameters measured in one run: in every phase their operations go round the
    /// variants in rounds (<see cref="InterleaveBlock"/> of each a round, the round's leader drawn each round),
    /// each variant on a client and keys of its own, so
    /// drift of the machine or the server hits every variant alike. Each names only the fields it changes;
    /// a sample's series is "{variant}/{phase}" ("A/read-same").
    /// </summary>
    public List<CacheVariant>? Variants { get; init; }

    /// <summary>With variants: operations of one variant in a row before the next variant's turn (1: one of each variant a round, in an order drawn each round).</summary>
    public int InterleaveBlock { get; init; } = 1;

    /// <summary><see cref="LoadParameters.Requests"/> counts per variant (and phase): a count of n is n operations of each.</summary>
    [JsonIgnore]
    public override int OperationsPerRequest => Math.Max(1, Variants?.Count ?? 1);

    /// <summary>Each variant's name and its full parameters (these with its fields put over them), in order; none without variants.</summary>
    public IReadOnlyList<(string Name, CacheParameters Parameters)> Resolved() =>
        (Variants ?? []).Select((v, i) => (VariantRules.NameAt(v?.Name, i), v is null ? this with { Variants = null } : v.Over(this))).ToList();

    /// <summary>The series a run of these parameters produces: its phases, each variant's phases with variants.</summary>
    public IReadOnlyList<string> Series()
    {
        var phases = (Phases ?? []).Select(phase => phase.Name()).ToList();
        return Variants is { Count: > 0 } ? phases.SelectMany(phase => Resolved().Select(v => CachePhaseNames.SeriesOf(v.Name, phase))).ToList() : phases;
    }
}

/// <summary>One variant of a cache run: a name and the fields that differ from the run's own; unset fields are inherited.</summary>
public sealed record CacheVariant
{
    /// <summary>Default A, B, C … by position.</summary>
    public string? Name { get; init; }
    public CacheBackend? Backend { get; init; }
    public string? Connection { get; init; }
    public int? KeyCount { get; init; }
    public int? ValueBytes { get; init; }
    public int? TimeoutMs { get; init; }

    /// <summary>The run's parameters with this variant's fields put over them; a variant that changes the backend to memory drops the connection.</summary>
    public CacheParameters Over(CacheParameters run)
    {
        var backend = Backend ?? run.Backend;
        return run with
        {
            Variants = null,
            Backend = backend,
            Connection = backend == CacheBackend.Memory ? null : Connection ?? run.Connection,
            KeyCount = KeyCount ?? run.KeyCount,
            ValueBytes = ValueBytes ?? run.ValueBytes,
            TimeoutMs = TimeoutMs ?? run.TimeoutMs,
        };
    }

    /// <summary>The fields it sets, by API name; the rest (phases, the load, the counts) is the run's, the same for every variant.</summary>
    public IEnumerable<string> SetFields()
    {
        if (Backend is not null) yield return "backend";
        if (Connection is not null) yield return "connection";
        if (KeyCount is not null) yield return "keyCount";
        if (ValueBytes is not null) yield return "valueBytes";
        if (TimeoutMs is not null) yield return "timeoutMs";
    }
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

    /// <summary>A variant's phase as a series: "A/read-same" (a compare key reads "12/A/read-same").</summary>
    public static string SeriesOf(string variant, string phase) => $"{variant}/{phase}";
}
