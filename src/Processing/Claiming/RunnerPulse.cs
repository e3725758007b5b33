namespace BenchDashboard.Processing.Claiming;

/// <summary>Why the runner's passes fail, and since when.</summary>
public sealed record RunnerFailure(string Reason, DateTimeOffset Since);

/// <summary>
/// When the runner loop last completed a pass, and why its passes fail while they do: the health check reads
/// it to tell a live runner from a stuck one, and to say what is wrong ("the database or its disk is full").
/// </summary>
public sealed class RunnerPulse(TimeProvider time)
{
    long lastBeatTicks;
    RunnerFailure? failure;

    public DateTimeOffset? LastBeat => Interlocked.Read(ref lastBeatTicks) is var t and > 0 ? new DateTimeOffset(t, TimeSpan.Zero) : null;

    /// <summary>Null while passes succeed.</summary>
    public RunnerFailure? Failure => Volatile.Read(ref failure);

    public void Beat()
    {
        Interlocked.Exchange(ref lastBeatTicks, time.GetUtcNow().UtcTicks);
        Volatile.Write(ref failure, null);
    }

    public void Fail(string reason) => Volatile.Write(ref failure, new RunnerFailure(reason, Failure?.Since ?? time.GetUtcNow()));

    /// <summary>Takes on what a runner in another process reported of itself (the dashboard's <c>ChildRunner</c>).</summary>
    public void Mirror(DateTimeOffset? lastBeat, RunnerFailure? reported)
    {
        Interlocked.Exchange(ref lastBeatTicks, lastBeat?.UtcTicks ?? 0);
        Volatile.Write(ref failure, reported);
    }
}
