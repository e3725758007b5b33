using System.Diagnostics;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// One worker's clock, owned by the <see cref="LoadDriver"/>: started just before it calls the kind's operation and
/// stopped as soon as that returns or throws. A kind that must prepare something first (a key, a request message)
/// restarts it where its work begins; one that has untimed work after the answer (waiting for its turn to send
/// again, reading caching headers) stops it there. The readings stay in Stopwatch ticks.
/// </summary>
public sealed class OperationClock
{
    /// <summary>The Stopwatch timestamp the operation's work started at.</summary>
    public long StartedAt { get; private set; }

    /// <summary>The Stopwatch timestamp it ended at; 0 while it runs.</summary>
    public long StoppedAt { get; private set; }

    /// <summary>(Re)starts the clock: what came before is not part of the operation.</summary>
    public void Start()
    {
        StoppedAt = 0;
        StartedAt = Stopwatch.GetTimestamp();
    }

    /// <summary>
    /// Stops the clock now, less <paramref name="ticks"/> spent inside the operation that are not part of it (a
    /// journey's think time between its steps): its latency leaves them out, its start stays when it started.
    /// </summary>
    public void StopExcluding(long ticks)
    {
        if (StoppedAt == 0) StoppedAt = Stopwatch.GetTimestamp() - ticks;
    }

    /// <summary>Stops the clock unless it is stopped already: what comes after is not part of the operation.</summary>
    public void Stop()
    {
        if (StoppedAt == 0) StoppedAt = Stopwatch.GetTimestamp();
    }
}
