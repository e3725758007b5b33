namespace BenchDashboard.Runner.Execution;

/// <summary>
/// The timeout of one operation at a time on one worker's connection, for kinds whose client takes a
/// cancellation token: armed after the operation's clock starts (so a timed-out sample lasts the timeout, ± a
/// timer tick), reset after it and reused by the next, instead of a new source and timer per operation. A source
/// that fired is replaced. <see cref="IsTimeout"/> tells a timeout from the run's cancel the same way for every kind.
/// </summary>
public sealed class OperationTimeout(TimeSpan after) : IDisposable
{
    CancellationTokenSource? source;
    CancellationToken linkedTo;

    /// <summary>A token cancelled when the run is, or when <paramref name="after"/> has passed from now.</summary>
    public CancellationToken Arm(CancellationToken run)
    {
        if (source is null || linkedTo != run)
        {
            source?.Dispose();
            source = CancellationTokenSource.CreateLinkedTokenSource(run);
            linkedTo = run;
        }
        source.CancelAfter(after);
        return source.Token;
    }

    /// <summary>Stops the clock once the operation has ended, however it ended.</summary>
    public void Disarm()
    {
        if (source is not null && !source.TryReset())
        {
            source.Dispose(); // it fired (a timeout or the run's end): the next operation gets a new one
            source = null;
        }
    }

    /// <summary>
    /// Whether a cancel that ended an operation means it ran out of time: one that was not the run's (the armed
    /// token's). A cancel of the run is not: the operation was abandoned, and the caller lets it end the load.
    /// </summary>
    public static bool IsTimeout(OperationCanceledException ex, CancellationToken run) => !run.IsCancellationRequested;

    public void Dispose() => source?.Dispose();
}
