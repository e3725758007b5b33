using System.Runtime.CompilerServices;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// One of the <see cref="LoadDriver"/>'s workers: its clock and its timeout, and the one place an operation is
/// measured and becomes a sample, whatever the kind.
/// </summary>
sealed class Worker(int index) : IDisposable
{
    readonly OperationTimeout timeout = new();

    public int Index => index;
    public OperationClock Clock { get; } = new();

    /// <summary>
    /// Runs <paramref name="work"/>'s operation on the clock under its timeout, and returns its sample. Throws when
    /// the run was cancelled meanwhile (an operation cut short by it has no honest duration) or when the kind says
    /// the failure is not the target's.
    /// </summary>
    // Pooled: when the operation is awaited its box is reused. A blocking operation completes at once, and then
    // nothing is boxed or queued: the worker's thread goes on to record its sample.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<Sample> MeasureAsync(ILoadOperation work, Operation operation, RunNotes notes, CancellationToken run)
    {
        var sample = operation.NewSample();
        var limit = work.TimeoutOf(operation.Variant);
        Outcome outcome;
        var ct = limit is { } after ? timeout.Arm(run, after) : run; // its timer's set-up is not the operation's
        Clock.Start();
        try
        {
            outcome = await work.OperateAsync(operation, ct);
            Clock.Stop();
        }
        catch (Exception ex)
        {
            Clock.Stop(); // before any bookkeeping: a failure's latency is ranked too
            if (run.IsCancellationRequested && ex is OperationCanceledException) throw;
            if (run.IsCancellationRequested) throw new OperationCanceledException(run);
            if (work.Failed(operation, ex, timedOut: ct.IsCancellationRequested) is not { } failed) throw;
            outcome = failed;
        }
        finally
        {
            if (limit is not null) timeout.Disarm();
        }
        operation.Time(sample, Clock.StartedAt, Clock.StoppedAt);
        sample.Series = outcome.Series;
        sample.Error = outcome.Error;
        sample.StatusCode = outcome.StatusCode;
        sample.Bytes = outcome.Bytes;
        sample.Hit = outcome.Hit;
        if (outcome.ConnectTicks is { } connect) sample.ConnectNs = Ticks.ToNanoseconds(connect);
        if (outcome.HeadersAt is { } headers) sample.HeadersNs = Ticks.ToNanoseconds(headers - Clock.StartedAt);
        if (outcome.Note is { } note) notes.AddError(outcome.Error, note);
        return sample;
    }

    public void Dispose() => timeout.Dispose();
}
