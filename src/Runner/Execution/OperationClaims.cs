using System.Diagnostics;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Hands out operation numbers 0, 1, 2 … to concurrent workers until a count or a duration is used up;
/// −1 means stop. A refused claim uses up no number, so numbers have no gaps.
/// </summary>
public static class OperationClaims
{
    public static Func<long> Of(int? count, int? durationSeconds) =>
        count is { } n ? UpTo(n) : For(TimeSpan.FromSeconds(durationSeconds ?? throw new ArgumentException("Neither a count nor a duration.")));

    public static Func<long> UpTo(long count)
    {
        long issued = -1;
        return () => Interlocked.Increment(ref issued) is var i && i < count ? i : -1;
    }

    /// <summary>
    /// The clock starts with the first claim, not when the workers are queued: a worker that starts late
    /// (a busy thread pool) must not find the time already over.
    /// </summary>
    public static Func<long> For(TimeSpan duration)
    {
        var ticks = (long)(duration.TotalSeconds * Stopwatch.Frequency);
        long deadline = 0, issued = -1;
        return () =>
        {
            var now = Stopwatch.GetTimestamp();
            if (Volatile.Read(ref deadline) == 0) Interlocked.CompareExchange(ref deadline, now + ticks, 0);
            return now < Volatile.Read(ref deadline) ? Interlocked.Increment(ref issued) : -1;
        };
    }
}
