namespace BenchDashboard.Runner.Scheduling;

/// <summary>When the runner loop last completed a pass; the health check reads it to tell a live runner from a stuck one.</summary>
public sealed class RunnerPulse(TimeProvider time)
{
    long lastBeatTicks;

    public DateTimeOffset? LastBeat => Interlocked.Read(ref lastBeatTicks) is var t and > 0 ? new DateTimeOffset(t, TimeSpan.Zero) : null;

    public void Beat() => Interlocked.Exchange(ref lastBeatTicks, time.GetUtcNow().UtcTicks);
}
