using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// What one operation gave, as its kind saw it: everything of its sample but the clock's figures, which are the
/// <see cref="LoadDriver"/>'s. Sub-timings are Stopwatch readings, never rounded: the driver turns them into the
/// sample's nanoseconds.
/// </summary>
public readonly record struct Outcome
{
    /// <summary>The sample's series (its variant, its phase); null for a run of one series.</summary>
    public string? Series { get; init; }

    public ErrorKind Error { get; init; }

    /// <summary>The answer's status, when there was one (HTTP, the Table service).</summary>
    public int? StatusCode { get; init; }

    public long Bytes { get; init; }

    /// <summary>Whether a read found what it asked for; null for what is not a read.</summary>
    public bool? Hit { get; init; }

    /// <summary>The connect made for this operation, in Stopwatch ticks; null when it reused a connection.</summary>
    public long? ConnectTicks { get; init; }

    /// <summary>The Stopwatch timestamp at which the answer's headers had all arrived; null when none did.</summary>
    public long? HeadersAt { get; init; }

    /// <summary>What the run's notes say about this failure (counted with others of its kind); null for nothing.</summary>
    public string? Note { get; init; }
}
