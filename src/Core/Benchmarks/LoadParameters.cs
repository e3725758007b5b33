using System.Text.Json.Serialization;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>
/// The load fields every kind that sends operations includes (HTTP, Table, cache): how many or how long, closed
/// or open, how many at once, how long one may take. A kind's parameters inherit them, so its JSON stays flat
/// (<c>{"url": …, "requests": 100, "concurrency": 4}</c>, as runs and benchmarks stored it) and
/// <see cref="LoadFieldsValidator"/> checks them once for every kind; the kind keeps only its own fields.
/// </summary>
public abstract record LoadParameters : ILoadParameters
{
    /// <param name="timeoutMs">The kind's default timeout: an HTTP request, a batch insert and a cache GET differ.</param>
    protected LoadParameters(int timeoutMs) => TimeoutMs = timeoutMs;

    /// <summary>Measured operations (per variant, per phase: see <see cref="LoadFieldsValidator"/>'s counting); exactly one of this and <see cref="DurationSeconds"/> is set, unless stages set the length.</summary>
    public int? Requests { get; init; }
    public int? DurationSeconds { get; init; }

    /// <summary>Closed (each connection sends when answered) or open (operations start on a schedule: <see cref="Rate"/>, <see cref="Stages"/>).</summary>
    public LoadModel Model { get; init; } = LoadModel.Closed;
    public double? Rate { get; init; }
    public List<RateStage>? Stages { get; init; }

    /// <summary>Connections or workers, each sending one operation after another; in the open model, the most in flight.</summary>
    public int Concurrency { get; init; } = 1;

    /// <summary>
    /// The name of the setting this run stands for: a variant's, when each variant runs as runs of its own (a
    /// repeat's separate runs), so that every page names the run as its form did. Null otherwise, and then left out
    /// of the JSON, so that runs of the same parameters stay identical as stored.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Setting { get; init; }

    /// <summary>How long one operation may take before it counts as a timeout.</summary>
    public int TimeoutMs { get; init; }

    [JsonIgnore]
    public TimeSpan Timeout => TimeSpan.FromMilliseconds(TimeoutMs);

    /// <summary>Operations per unit of <see cref="Requests"/>: with variants a count is per variant, so n means n of each.</summary>
    [JsonIgnore]
    public virtual int OperationsPerRequest => 1;

    /// <summary>
    /// Warm-up operations, for the kinds that have a <c>warmupRequests</c> field of their own (the cache's phases
    /// have none): protected so that a kind without the field does not gain it in its JSON.
    /// </summary>
    [JsonIgnore]
    protected virtual int Warmup => 0;

    int ILoadParameters.WarmupRequests => Warmup;
}
