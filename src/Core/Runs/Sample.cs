namespace BenchDashboard.Core.Runs;

/// <summary>
/// One request or operation. All durations are nanoseconds converted exactly from Stopwatch ticks (no rounding to ms).
/// Keyed by (RunId, Index): the index is the order in which requests started across all connections (for a run
/// spread over agents, the order in which the dashboard received them: each agent numbers its own from 0).
/// </summary>
public sealed class Sample
{
    public long RunId { get; set; }
    public int Index { get; set; }

    /// <summary>
    /// When the request started, relative to the start of the run (first request, warm-up included). In the open
    /// model: when it was due (its intended start on the schedule); it actually started <see cref="LagNs"/> later.
    /// </summary>
    public long OffsetNs { get; set; }

    /// <summary>
    /// Total time: request start until the response body was fully read (ab "Total"). In the open model the
    /// corrected latency, from the intended start: what a user arriving on schedule waited, a stall included
    /// (coordinated omission corrected). The service time is <c>LatencyNs − LagNs</c>.
    /// </summary>
    public long LatencyNs { get; set; }

    /// <summary>
    /// Open model only: how late the request actually started (actual − intended), because the generator was
    /// late or every connection was busy. Null in the closed model.
    /// </summary>
    public long? LagNs { get; set; }

    /// <summary>Actual request start until response headers arrived; null when none arrived.</summary>
    public long? HeadersNs { get; set; }

    /// <summary>TCP connect time when this request opened a new connection (ab "Connect"); null on a reused one.</summary>
    public long? ConnectNs { get; set; }

    public int? StatusCode { get; set; }
    public long Bytes { get; set; }
    public ErrorKind Error { get; set; }
    public bool IsWarmup { get; set; }

    /// <summary>Which connection (worker) issued it, 0..concurrency-1.</summary>
    public int Connection { get; set; }

    /// <summary>
    /// The series this sample belongs to when a run measures several things in turn (a cache run's phase,
    /// e.g. "read-miss"); null for a run with a single series (HTTP).
    /// </summary>
    public string? Series { get; set; }

    /// <summary>
    /// Which shard of a run spread over runner agents measured it (<see cref="Run.Agents"/>; the run's
    /// <see cref="Run.AgentsJson"/> names the agent that held the shard); null for a run of the dashboard's own runner.
    /// </summary>
    public int? Shard { get; set; }

    /// <summary>For cache reads: whether the key was found. A miss is an answer, not an error. Null otherwise.</summary>
    public bool? Hit { get; set; }

    /// <summary>A copy of every field, so a derived form (the service time) cannot leave one behind.</summary>
    public Sample Copy() => (Sample)MemberwiseClone();
}
