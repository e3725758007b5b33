namespace BenchDashboard.Runner.Execution;

/// <summary>
/// The timeout of one operation at a time on one worker, the same for every kind: the <see cref="LoadDriver"/>
/// arms it as the operation's clock starts (so a timed-out sample lasts the timeout, ± a timer tick), resets it
/// after and reuses it for the next, instead of a new source and timer per operation. A source that fired is replaced.
/// </summary>
sealed class OperationTimeout : IDisposable
{
    CancellationTokenSource? source;
    CancellationToken linkedTo;

    /// <summary>A token cancelled when the run is, or when <paramref name="after"/> has passed from now.</summary>
    public CancellationToken Arm(CancellationToken run, TimeSpan after)
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

    /// <summary>Stops the timer once the operation has ended, however it ended.</summary>
    public void Disarm()
    {
        if (source is not null && !source.TryReset())
        {
            source.Dispose(); // it fired (a timeout or the run's end): the next operation gets a new one
            source = null;
        }
    }

    public void Dispose() => source?.Dispose();
}
