using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// One operation the <see cref="LoadDriver"/> hands a kind: on which worker, of which variant, its number and its
/// sample's index, in the open model when it was due, and the worker's <see cref="Clock"/>, which the driver
/// starts before the kind's call and stops after it.
/// </summary>
/// <param name="Worker">The connection or worker it runs on, 0 … concurrency − 1.</param>
/// <param name="Variant">Which of the run's variants, 0 when it has none.</param>
/// <param name="Number">The variant's operation number in this call of the driver, from 0: which key or file it uses.</param>
/// <param name="Index">The sample's index: operations are numbered in the order they start, across workers, variants and phases.</param>
/// <param name="Due">Open model: the Stopwatch timestamp it was due at on the schedule.</param>
/// <param name="RunStart">The Stopwatch timestamp offsets count from.</param>
/// <param name="Clock">The worker's clock: a kind restarts it after untimed preparation, or stops it before untimed work after the answer.</param>
public readonly record struct Operation(int Worker, int Variant, long Number, int Index, bool IsWarmup, long? Due, long RunStart, OperationClock Clock)
{
    /// <summary>The operation's sample, numbered and on its worker: made before the clock starts, so its allocation is not timed.</summary>
    internal Sample NewSample() => new() { Index = Index, Connection = Worker, IsWarmup = IsWarmup };

    /// <summary>
    /// Fills in the sample of an operation that ran from <paramref name="start"/> to <paramref name="end"/>: its
    /// place at its origin (the due time in the open model) with how late it started (its lag) when it was due, and
    /// its latency from that origin, so in the open model a wait for a free worker counts (corrected latency; the
    /// service time is this less the lag).
    /// </summary>
    internal void Time(Sample sample, long start, long end)
    {
        var origin = Due ?? start;
        sample.OffsetNs = Ticks.ToNanoseconds(origin - RunStart);
        if (Due is { } due) sample.LagNs = Ticks.ToNanoseconds(start - due);
        sample.LatencyNs = Ticks.ToNanoseconds(end - origin);
    }
}

/// <summary>
/// What a kind gives the <see cref="LoadDriver"/>: its operation's work and what an outcome or a failure of it
/// means, and nothing of the load, the clock or the samples around it.
/// </summary>
public interface ILoadOperation
{
    /// <summary>How long an operation of <paramref name="variant"/> may take before it counts as timed out; null: no limit.</summary>
    TimeSpan? TimeoutOf(int variant) => null;

    /// <summary>
    /// Runs one operation. <paramref name="ct"/> is cancelled when its timeout passes or the run ends. A fault of the
    /// target may be returned as an outcome with its error, or thrown and described by <see cref="Failed"/>.
    /// </summary>
    ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct);

    /// <summary>
    /// What an operation that threw counts as; <paramref name="timedOut"/> when its timeout had passed. Null when the
    /// exception is not the target's fault (a refused target, a server gone for good): it then ends the run.
    /// </summary>
    Outcome? Failed(Operation operation, Exception exception, bool timedOut) => null;

    /// <summary>Called on the same worker once the sample is recorded (a back-off after a failure, say); may throw to end the run.</summary>
    ValueTask AfterAsync(Operation operation, Sample sample, CancellationToken ct) => ValueTask.CompletedTask;
}
