using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Processing.Executing;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Runs a kind's operation (<see cref="ILoadOperation"/>) under the load its parameters ask for, and measures it, the
/// same way for every kind, as BenchmarkDotNet's engine owns the stages and the clock and a benchmark supplies only
/// its workload. A run is a plan (<see cref="LoadPlan"/>): set-up, phases, clean-up however they ended. Each phase
/// is a warm-up first, back to back on the same workers and flagged, finished before measurement starts; then the
/// closed model (<c>Concurrency</c> workers each starting the next operation when the last is answered, until the
/// count or the duration is used up) or the open model (operations start on the schedule of
/// <see cref="LoadProfile"/>, each on a free worker, <see cref="OpenLoad"/>). Each operation is timed by its worker's
/// clock under its one timeout and becomes a sample there (<see cref="Worker"/>); the kind returns only its
/// <see cref="Outcome"/>. Variants take turns in blocks, so drift hits all of them alike: a round is a block of each
/// variant, and which variant leads a round is drawn (<see cref="VariantTurns"/>), so nothing that alternates in the
/// machine lines up with the variants. In the open model operation k is in round k ÷ (block × variants); in the
/// closed model each worker claims a block of numbers at a time and goes round the variants. With a count that is a
/// multiple of block × variants each variant gets the same number; with a duration, within a block. Samples are
/// numbered in the order operations start, across workers, variants and phases. Every sample goes to the run's
/// context, which keeps the sample budget; a cancel ends the load as cancelled, and a worker that fails stops the
/// others and ends it with its failure.
/// </summary>
public sealed class LoadDriver
{
    readonly RunContext context;
    int nextIndex = -1;

    public LoadDriver(RunContext context)
    {
        this.context = context;
        context.StartedCount = () => Volatile.Read(ref nextIndex) + 1;
    }

    /// <summary>
    /// A sample index for a sample an operation records of its own (a journey's steps, inside the iteration the
    /// driver measures), numbered in the same order as the driver's.
    /// </summary>
    public int NextIndex() => Interlocked.Increment(ref nextIndex);

    /// <summary>How long a plan's clean-up may take, also after a cancel.</summary>
    public static readonly TimeSpan CleanUpBound = TimeSpan.FromMinutes(2);

    /// <summary>Runs <paramref name="plan"/>: its set-up, each phase's set-up and load, then its clean-up, whatever happened before.</summary>
    public async Task RunAsync(LoadPlan plan, CancellationToken ct)
    {
        try
        {
            if (plan.SetUpAsync is { } setUp) await setUp(ct);
            foreach (var phase in plan.Phases)
            {
                if (phase.SetUpAsync is { } before) await before(ct);
                await RunAsync(phase.Load, phase.Operation, ct, phase.Variants, phase.Block, phase.Name);
            }
        }
        finally
        {
            if (plan.CleanUpAsync is { } cleanUp) await CleanUpAsync(cleanUp);
        }
    }

    async Task CleanUpAsync(Func<CancellationToken, Task> cleanUp)
    {
        using var bound = new CancellationTokenSource(CleanUpBound);
        try
        {
            await cleanUp(bound.Token);
        }
        catch (Exception ex)
        {
            // The run's own end (its samples, its failure) matters more than what it may have left behind.
            context.Notes.Add($"Clean-up failed: {ex.Message}");
        }
    }

    /// <summary>Where every sample's offset counts from: when the driver was made.</summary>
    public long RunStart { get; } = Stopwatch.GetTimestamp();

    /// <param name="variants">How many variants go round (1 for none); each has its own operations, numbered from 0.</param>
    /// <param name="block">Operations of one variant in a row before the next variant's turn.</param>
    /// <param name="phase">The phase's name, for the open model's notes when a run has several.</param>
    public async Task RunAsync(ILoadParameters load, ILoadOperation operation, CancellationToken ct, int variants = 1, int block = 1, string? phase = null)
    {
        var shape = new Shape(load.Concurrency, Math.Max(1, variants), Math.Max(1, block));
        ThreadPoolGuard.EnsureCovers(shape.Workers);
        var workers = Enumerable.Range(0, shape.Workers).Select(w => new Worker(w)).ToArray();
        try
        {
            if (load.WarmupRequests > 0) await ClosedAsync(shape, workers, OperationClaims.UpTo(load.WarmupRequests), operation, warmup: true, ct);
            if (LoadProfile.Of(load) is { } profile) await OpenAsync(shape, workers, profile, operation, phase, ct);
            else await ClosedAsync(shape, workers, OperationClaims.Of(load.Requests, load.DurationSeconds), operation, warmup: false, ct);
        }
        finally
        {
            foreach (var worker in workers) worker.Dispose();
        }
    }

    readonly record struct Shape(int Workers, int Variants, int Block);

    /// <summary>
    /// Each worker claims up to a block of numbers (one number is one operation of every variant), then runs
    /// that many of each variant in turn, until no number is left.
    /// </summary>
    async Task ClosedAsync(Shape shape, Worker[] workers, Func<long> claim, ILoadOperation operation, bool warmup, CancellationToken ct)
    {
        // One worker that fails (the target refused, the server is gone) stops the others too. Their tasks end
        // cancelled, so awaiting them all throws the one real failure.
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var running = workers.Select(worker => Task.Run(async () =>
        {
            try
            {
                var numbers = new long[shape.Block];
                var firstRound = true;
                // Checked here because an in-process operation completes at once: its awaits never yield.
                while (!stop.Token.IsCancellationRequested)
                {
                    var claimed = 0;
                    while (claimed < shape.Block && claim() is var i && i >= 0) numbers[claimed++] = i;
                    if (claimed == 0) break;
                    var first = firstRound ? 0 : VariantTurns.First(numbers[0] / shape.Block, shape.Variants);
                    firstRound = false;
                    for (var turn = 0; turn < shape.Variants; turn++)
                        for (var b = 0; b < claimed; b++)
                        {
                            var v = (first + turn) % shape.Variants;
                            // Inline rather than through OperateAsync: no state machine of its own per operation on the hot path.
                            var op = new Operation(worker.Index, v, numbers[b], Interlocked.Increment(ref nextIndex), warmup, null, RunStart, worker.Clock);
                            var sample = await worker.MeasureAsync(operation, op, context.Notes, stop.Token);
                            context.Record(sample);
                            await operation.AfterAsync(op, sample, stop.Token);
                        }
                }
                stop.Token.ThrowIfCancellationRequested(); // a run stopped between two operations did not complete
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                await stop.CancelAsync();
                throw;
            }
        }, stop.Token)).ToArray();
        await Task.WhenAll(running);
    }

    /// <summary>
    /// Operation k on the schedule, on a free worker: the ((k ÷ block) mod variants)-th turn of its round, whose
    /// operation number is what the rounds before gave it plus its place in the block, as in the closed model.
    /// </summary>
    async Task OpenAsync(Shape shape, Worker[] workers, LoadProfile profile, ILoadOperation operation, string? phase, CancellationToken ct)
    {
        var monitor = new OpenLoadMonitor();
        var (block, variants) = ((long)shape.Block, (long)shape.Variants);
        try
        {
            await OpenLoad.RunAsync(profile, shape.Workers, (worker, k, due) =>
                OperateAsync(operation, workers[worker], (int)((VariantTurns.First(k / (block * variants), shape.Variants) + k / block % variants) % variants),
                    k / (block * variants) * block + k % block, due, ct), monitor, ct);
        }
        finally
        {
            monitor.Report(context.Notes, shape.Workers, phase);
        }
    }

    async Task OperateAsync(ILoadOperation operation, Worker worker, int variant, long number, long due, CancellationToken ct)
    {
        var op = new Operation(worker.Index, variant, number, Interlocked.Increment(ref nextIndex), false, due, RunStart, worker.Clock);
        var sample = await worker.MeasureAsync(operation, op, context.Notes, ct);
        context.Record(sample);
        await operation.AfterAsync(op, sample, ct);
    }
}
