using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Runs;

/// <summary>One execution of a benchmark with a snapshot of its parameters and the environment it ran in.</summary>
public sealed class Run
{
    public long Id { get; set; }

    /// <summary>Null for ad-hoc runs started from the form or API without a saved benchmark.</summary>
    public int? BenchmarkId { get; set; }
    public Benchmark? Benchmark { get; set; }

    /// <summary>
    /// Its benchmark's name, kept as the benchmark is renamed: when the benchmark is deleted the run keeps it
    /// (the key is then null) and still says which benchmark it came from.
    /// </summary>
    public string? BenchmarkName { get; set; }

    /// <summary>The <see cref="IBenchmarkKind.Name"/> of its kind ("http", "table", …).</summary>
    public required string Kind { get; set; }
    public required string ParametersJson { get; set; }
    public RunStatus Status { get; set; }

    public long QueuedUtcMs { get; set; }
    public long? StartedUtcMs { get; set; }
    public long? EndedUtcMs { get; set; }

    /// <summary>When its samples were dropped by <c>Runs:KeepSamplesDays</c> (its digests kept); null while it has them.</summary>
    public long? SamplesDroppedUtcMs { get; set; }

    /// <summary>Set by the runner every few seconds while running; a stale value means the runner died.</summary>
    public long? HeartbeatUtcMs { get; set; }
    public string? RunnerName { get; set; }

    /// <summary>
    /// While queued: why a runner that looked at it left it to another ("a runner with the connection string 'cache9'"),
    /// for its page; cleared when one claims it.
    /// </summary>
    public string? WaitingFor { get; set; }
    public bool CancelRequested { get; set; }

    /// <summary>Requests finished so far (warm-up included), for live progress.</summary>
    public int CompletedRequests { get; set; }

    /// <summary>
    /// How many samples the executor produced, written when its load ended normally and before the last ones
    /// are stored: a runner that dies after that point left a complete run if that many samples are stored.
    /// </summary>
    public int? MeasuredSamples { get; set; }

    /// <summary>
    /// While the run is under way, its runner's latest <see cref="LiveSnapshot"/> as JSON, written with each
    /// heartbeat; null once it has ended (its digest has the exact figures).
    /// </summary>
    public string? LiveJson { get; set; }

    public string? EnvironmentJson { get; set; }

    /// <summary>Distinct values of caching headers seen in responses (<see cref="CachingEvidence"/>) as JSON.</summary>
    public string? CachingEvidenceJson { get; set; }

    /// <summary>What the executor wants a reader to know (<see cref="RunNotes"/>: error messages, cleanup) as JSON.</summary>
    public string? NotesJson { get; set; }

    /// <summary>Key figures (<see cref="RunSummary"/>) as JSON, stored the first time a finished run is summarised.</summary>
    public string? SummaryJson { get; set; }

    public string? Error { get; set; }

    /// <summary>
    /// How the completed run stood in its benchmark's history when it was judged (<see cref="Statistics.Changes.HistoryJudgement"/>)
    /// as JSON: the change it confirmed, if any, or a possible one pending. Null until judged.
    /// </summary>
    public string? HistoryJson { get; set; }

    /// <summary>The version of the change rule that judged it; null until judged. A run judged by an older rule is judged again.</summary>
    public int? HistoryVersion { get; set; }

    /// <summary>
    /// Its benchmark's limits as they stood when the run ended and the verdict they gave (<see cref="Reports.RecordedLimits"/>)
    /// as JSON, so a limit changed later does not rewrite it; null for ad-hoc runs and runs that ended before limits were recorded.
    /// </summary>
    public string? LimitsJson { get; set; }

    /// <summary>
    /// When the dashboard judged the finished run for its benchmark's webhooks (<see cref="BenchDashboard.Core.Stores.RunNotifications"/>);
    /// null until then. Runs that ended before webhooks existed were marked by the upgrade, so none is announced late.
    /// </summary>
    public long? WebhooksCheckedUtcMs { get; set; }

    /// <summary>
    /// How many runner agents on other machines share the run's load, each a shard of it; null for a
    /// run of the dashboard's own runner. Such a run is claimed by the dashboard's agent coordinator only.
    /// </summary>
    public int? Agents { get; set; }

    /// <summary>Per shard, the agent that ran it and how (<see cref="Agents.AgentShardRow"/>s) as JSON; null for a run without agents.</summary>
    public string? AgentsJson { get; set; }

    /// <summary>
    /// The same workload on each of these agents in turn (<see cref="Agents.OnEach"/>) as JSON; null for any other run.
    /// Such a run's <see cref="Agents"/> is the number of agents named, so the coordinator claims it.
    /// </summary>
    public string? OnEachJson { get; set; }
}
