using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// One operation the <see cref="LoadDriver"/> hands a kind: on which worker, of which variant, its number and
/// its sample's index, and, in the open model, when it was due. The kind times the operation itself (only it
/// knows where the work starts and ends); <see cref="Started"/> and <see cref="LatencyNs"/> turn its two
/// timestamps into the sample's place and its latency, counted from the due time when there is one.
/// </summary>
/// <param name="Worker">The connection or worker it runs on, 0 … concurrency − 1.</param>
/// <param name="Variant">Which of the run's variants, 0 when it has none.</param>
/// <param name="Number">The variant's operation number in this call of the driver, from 0: which key or file it uses.</param>
/// <param name="Index">The sample's index: operations are numbered in the order they start, across workers, variants and phases.</param>
/// <param name="Due">Open model: the Stopwatch timestamp it was due at on the schedule.</param>
/// <param name="RunStart">The Stopwatch timestamp offsets count from.</param>
public readonly record struct Operation(int Worker, int Variant, long Number, int Index, bool IsWarmup, long? Due, long RunStart)
{
    /// <summary>The operation's sample, numbered and on its worker: made before the clock starts, so its allocation is not timed.</summary>
    public Sample Sample() => new() { Index = Index, Connection = Worker, IsWarmup = IsWarmup };

    /// <summary>
    /// Places the sample of an operation that started at <paramref name="start"/> at its origin (the due time in
    /// the open model), with how late it started (its lag) when it was due.
    /// </summary>
    public void Started(Sample sample, long start)
    {
        sample.OffsetNs = Ticks.ToNanoseconds((Due ?? start) - RunStart);
        if (Due is { } due) sample.LagNs = Ticks.ToNanoseconds(start - due);
    }

    /// <summary>
    /// From the origin to <paramref name="end"/>: in the open model from when it was due, so a wait for a free
    /// worker counts (corrected latency); the service time is this less the sample's lag.
    /// </summary>
    public long LatencyNs(long start, long end) => Ticks.ToNanoseconds(end - (Due ?? start));
}

/// <summary>What a kind gives the <see cref="LoadDriver"/>: its operation, and nothing of the load around it.</summary>
public interface ILoadOperation
{
    /// <summary>
    /// Runs one operation and returns its sample (made with <see cref="Operation.Sample"/>, placed with <see cref="Operation.Started"/>). A fault of the target
    /// is a sample with its error; throw only when the run cannot go on, or when <paramref name="ct"/> was cancelled.
    /// </summary>
    ValueTask<Sample> OperateAsync(Operation operation, CancellationToken ct);

    /// <summary>Called on the same worker once the sample is recorded (a back-off after a failure, say); may throw to end the run.</summary>
    ValueTask AfterAsync(Operation operation, Sample sample, CancellationToken ct) => ValueTask.CompletedTask;
}
