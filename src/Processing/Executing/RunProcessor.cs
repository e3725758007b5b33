using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Processing.Storing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// Takes one claimed run to a final status: starts the sample writer and the heartbeat, runs the kind's
/// executor, waits until every sample is stored (or counted lost), then records the outcome. When storing
/// fails for <see cref="RunnerOptions.StorageStallSeconds"/>, or the writer's buffer is full, the load stops
/// and the run fails with the reason and the counts of samples measured, stored and lost: a run never goes on
/// measuring into the void. Never throws.
/// </summary>
public sealed class RunProcessor(
    KindExecutors executors, Core.Benchmarks.BenchmarkKinds kinds, RunStore store, IServiceScopeFactory scopes, StorageReserve reserve,
    IOptions<RunnerOptions> options, IOptions<Core.Benchmarks.RunLimits> limits, ILogger<RunProcessor> logger)
{
    readonly QuietLog quiet = new(logger, TimeSpan.FromSeconds(30));

    /// <param name="executor">Who produces the samples; by default the executor of the run's kind in this process.</param>
    public async Task ProcessAsync(Run run, CancellationToken stopping, IBenchmarkExecutor? executor = null)
    {
        try
        {
            await ProcessCoreAsync(run, executor ?? ExecutorOf(run), stopping);
        }
        catch (Exception ex)
        {
            // The run stays 'running' without heartbeats; recovery marks it interrupted.
            logger.LogError(ex, "Run {RunId}: the runner could not see it through", run.Id);
        }
        finally
        {
            store.Released(run.Id); // from now on, a run left 'running' is for recovery to end
        }
    }

    /// <summary>The executor of the run's kind's parameters type; null when the kind is unknown or has none here.</summary>
    IBenchmarkExecutor? ExecutorOf(Run run) => executors.Find(run.Kind)?.Executor;

    async Task ProcessCoreAsync(Run run, IBenchmarkExecutor? executor, CancellationToken stopping)
    {
        var o = options.Value;
        reserve.Ensure(); // made again if a full disk took it, now that there is room to start a run
        var environment = EnvironmentSnapshot.Capture();
        var environmentJson = Json.Serialize(environment);
        if (executor is null)
        {
            await FinishAsync(new Outcome(run.Id, RunStatus.Failed, 0, environmentJson, null, null, $"No executor for kind {run.Kind}."), stopping);
            return;
        }

        try
        {
            await store.StartedAsync(run.Id, environmentJson, stopping);
        }
        catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
        {
            quiet.Warning(null, $"Run {run.Id}: its environment could not be stored at the start ({fault.Reason}); it is stored at the end.");
        }

        using var storing = new BackgroundThread("Run storing", o.BackgroundNice);
        using var beating = new BackgroundThread("Run heartbeat", o.BackgroundNice); // its own: a heartbeat may wait out a lock
        var writer = new SampleWriter(scopes, o.SampleBatchSize, TimeSpan.FromMilliseconds(o.SampleFlushIntervalMs), o.SampleBufferSize,
            TimeSpan.FromSeconds(o.StorageGiveUpSeconds), storing);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        var userCancelled = false;
        string? storageStop = null; // why the load was stopped for storage's sake, if it was
        void StopLoad(string why)
        {
            if (Interlocked.CompareExchange(ref storageStop, why, null) is null) cancel.Cancel();
        }

        var bufferFull = false;
        var budgetReached = false;
        var budget = limits.Value.MaxSamplesPerRun;
        var basis = kinds.SeriesBasis(run);
        using var context = new RunContext(run, writer.TryAdd, () =>
        {
            bufferFull = true;
            StopLoad("the buffer was full");
        }, budget, () =>
        {
            budgetReached = true;
            cancel.Cancel();
        }, isIterations: basis.Iterations is null ? null : basis.IsIterations);
        writer.Metrics = context.Metrics; // OpenTelemetry, when on: recorded as the writer drains, off the measurement path
        var writing = writer.WriteAllAsync();
        using var heartbeatStop = new CancellationTokenSource();
        var heartbeat = Task.WhenAll(
            HeartbeatAsync(run.Id, context, beating, () => { userCancelled = true; cancel.Cancel(); }, heartbeatStop.Token),
            WatchStorageAsync(writer, StopLoad, heartbeatStop.Token));

        RunStatus status;
        string? error = null;
        try
        {
            logger.LogInformation("Run {RunId} ({Kind}) started", run.Id, run.Kind);
            // Read once, by the kind, for the executor (an executor handed a run explicitly reads its own).
            if (executors.Find(run.Kind) is { } found && found.Executor == executor) context.Parameters = found.Kind.Deserialize(run.ParametersJson);
            await executor.ExecuteAsync(context, cancel.Token);
            status = RunStatus.Completed;
            await MarkMeasuredAsync(run.Id, context.Completed);
        }
        catch (OperationCanceledException) when (cancel.IsCancellationRequested && budgetReached && storageStop is null && !userCancelled && !stopping.IsCancellationRequested)
        {
            // The load was cut at the budget by design: what was measured is complete, and says where it stopped.
            status = RunStatus.Completed;
            context.Notes.AddWarning($"Stopped at the sample budget of {budget:N0} samples (RunLimits:MaxSamplesPerRun), before the run's own end; every sample up to there is kept.");
            await MarkMeasuredAsync(run.Id, context.Completed);
        }
        catch (RunInterruptedException ex)
        {
            status = RunStatus.Interrupted;
            error = ex.Message;
        }
        catch (OperationCanceledException) when (cancel.IsCancellationRequested)
        {
            status = userCancelled ? RunStatus.Cancelled : RunStatus.Interrupted;
            if (status == RunStatus.Interrupted) error = "The runner was shut down during this run. Samples taken before that are kept.";
        }
        catch (Exception ex)
        {
            logger.LogError(ex, "Run {RunId} failed", run.Id);
            status = RunStatus.Failed;
            error = ex.Message;
        }

        writer.Complete();
        await writing; // every sample stored, or the writer gave up after storing failed past its bound
        await heartbeatStop.CancelAsync();
        await heartbeat;

        var measured = context.Completed;
        var lost = measured - writer.Stored;
        if (storageStop is not null || writer.GaveUp)
        {
            status = RunStatus.Failed;
            // A full buffer is a symptom: when storing failed meanwhile (a lock is only known after the busy
            // timeout), that failure is the reason; otherwise storing was merely slower than the load.
            // Composed now, when the writer knows most: a lock is learnt of only at the busy timeout, and how long
            // it lasted only once it is gone.
            var why = (bufferFull, writer.LastFault) switch
            {
                (_, { MayPass: false } fatal) => fatal.Reason, // a full disk: the buffer filling meanwhile is beside the point
                (true, { } f) => $"{f.Reason} for {writer.LongestFailure.TotalSeconds:N0} s, and the {o.SampleBufferSize:N0} samples waiting filled the buffer",
                (true, null) => $"storing could not keep up: {o.SampleBufferSize:N0} samples were waiting to be stored",
                (false, { } f) when storageStop is not null => $"{f.Reason} for {writer.LongestFailure.TotalSeconds:N0} s",
                _ => storageStop ?? $"{writer.Fault?.Reason ?? "storing failed"} after the run",
            };
            error = $"Storing samples failed: {why}{(storageStop is null ? "" : "; the load was stopped")}. {measured:N0} samples measured, {writer.Stored:N0} stored, {lost:N0} lost.";
            logger.LogError("Run {RunId}: {Error}", run.Id, error);
        }

        // What the client settled on connecting is known only once the executor has run.
        if (context.Client() is { } client) environmentJson = Json.Serialize(environment with { Client = client });
        await FinishAsync(new Outcome(run.Id, status, measured, environmentJson, context.CachingEvidence, context.Notes, error), stopping);
        logger.LogInformation("Run {RunId} ended {Status} after {Count} requests", run.Id, status, measured);
        // After a full disk (or a store that will not take writes), storing the run's digest and sorted latencies, as
        // large as its samples, would take the room an operator frees and leave the queue stuck behind it: the run's
        // page makes them when it is first looked at.
        if (writer.LastFault is { MayPass: false } lasting)
            logger.LogWarning("Run {RunId}: its figures are made when it is first looked at, not now: storing failed ({Reason})", run.Id, lasting.Reason);
        else await SummarizeAsync(run.Id);
    }

    /// <summary>Says the load ended with this many samples, so a crash while the last are stored can still leave a complete run.</summary>
    async Task MarkMeasuredAsync(long runId, int samples)
    {
        try
        {
            await store.MeasuredAsync(runId, samples, CancellationToken.None);
        }
        catch (Exception ex) when (StorageFault.Of(ex) is not null)
        {
            // Only recovery after a crash needs it; the outcome itself is stored below.
        }
    }

    sealed record Outcome(long RunId, RunStatus Status, int Completed, string? EnvironmentJson, CachingEvidence? Evidence, RunNotes? Notes, string? Error);

    /// <summary>
    /// Records the outcome; while storage refuses, tries a minimal update (status, end, reason: it fits in the
    /// row's page when a full disk refuses the notes), then waits and tries again until it is stored or the
    /// runner stops. A run left 'running' by a stop is recovered at the next start.
    /// </summary>
    async Task FinishAsync(Outcome o, CancellationToken stopping)
    {
        var backoff = TimeSpan.FromMilliseconds(200);
        while (true)
        {
            try
            {
                await store.FinishAsync(o.RunId, o.Status, o.Completed, o.EnvironmentJson, o.Evidence, o.Notes, o.Error, CancellationToken.None);
                return;
            }
            catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
            {
                StorageFault.ForgetConnections();
                // A full disk cannot take even this: free the space kept for it and try again at once.
                if (!fault.MayPass && reserve.Release()) continue;
                try
                {
                    await store.FinishBrieflyAsync(o.RunId, o.Status, o.Completed, o.Error, CancellationToken.None);
                    logger.LogWarning("Run {RunId}: only its status and reason could be stored ({Reason})", o.RunId, fault.Reason);
                    return;
                }
                catch (Exception brief) when (StorageFault.Of(brief) is not null)
                {
                    quiet.Error(null, $"Run {o.RunId}: its outcome ({o.Status}) cannot be stored: {fault.Reason}; trying again.");
                }
            }
            if (stopping.IsCancellationRequested) return;
            try
            {
                await Task.Delay(backoff, stopping);
            }
            catch (OperationCanceledException)
            {
                return;
            }
            backoff = TimeSpan.FromTicks(Math.Min(backoff.Ticks * 2, TimeSpan.FromSeconds(5).Ticks));
        }
    }

    /// <summary>
    /// Builds the run's digest (every figure its pages show), stores its key figures and judges it in its benchmark's
    /// history now, while its samples are at hand, so no view, trend or notice reads them again. A digest or summary stored
    /// earlier (a view while the run looked interrupted) is replaced.
    /// </summary>
    async Task SummarizeAsync(long runId)
    {
        try
        {
            await using var scope = scopes.CreateAsyncScope();
            if (await scope.ServiceProvider.GetRequiredService<RunQueries>().FindAsync(runId, CancellationToken.None) is not { } finished || !finished.Status.IsFinal()) return;
            var started = System.Diagnostics.Stopwatch.GetTimestamp();
            var digests = await scope.ServiceProvider.GetRequiredService<RunDigests>().BuildAsync(finished, store: true, CancellationToken.None);
            logger.LogInformation("Run {RunId}: digest of {Count} samples built in {Ms:N0} ms", runId, digests[BenchDashboard.Core.Runs.LatencyBasis.Corrected].Chart.TotalSamples,
                System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            var history = scope.ServiceProvider.GetRequiredService<RunHistory>();
            await history.StoreSummaryAsync(runId, digests[BenchDashboard.Core.Runs.LatencyBasis.Corrected].Statistics, CancellationToken.None,
                digests[BenchDashboard.Core.Runs.LatencyBasis.Corrected].Series);
            // Judged in its benchmark's history now, so that the runs list, webhooks and benchdash read one stored judgement.
            if (finished.Benchmark is { } benchmark && finished.Status == RunStatus.Completed) await history.JudgeAsync(benchmark, CancellationToken.None);
        }
        catch (Exception ex)
        {
            // Not fatal: the digest, summary and judgement are made the first time the run is looked at.
            logger.LogWarning(ex, "Summarising run {RunId} failed", runId);
        }
    }

    /// <summary>Keeps the run's heartbeat and progress fresh and watches for a cancel; the work of each beat on <paramref name="thread"/>.</summary>
    async Task HeartbeatAsync(long runId, RunContext context, BackgroundThread thread, Action onCancelRequested, CancellationToken ct)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(options.Value.HeartbeatIntervalMs));
        try
        {
            while (await timer.WaitForNextTickAsync(ct))
            {
                try
                {
                    if (await thread.Run(() => store.Heartbeat(runId, context.Completed, Core.Json.Serialize(context.Live.Snapshot())))) onCancelRequested();
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    if (StorageFault.Of(ex) is not null) StorageFault.ForgetConnections();
                    // A locked or slow database must not end the run by itself; the storage watch decides.
                    quiet.Warning(ex, $"Heartbeat of run {runId} failed: {StorageFault.Of(ex)?.Reason ?? ex.Message}");
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    /// <summary>
    /// Stops the load once storing has failed for the stall bound, or at once for a fault that will not pass
    /// (a full disk). Its own loop: a heartbeat can itself wait out the busy timeout on a locked database.
    /// </summary>
    async Task WatchStorageAsync(SampleWriter writer, Action<string> stopLoad, CancellationToken ct)
    {
        var stall = TimeSpan.FromSeconds(options.Value.StorageStallSeconds);
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(Math.Min(250, options.Value.HeartbeatIntervalMs)));
        try
        {
            while (await timer.WaitForNextTickAsync(ct))
            {
                if (writer.Fault is { MayPass: false } fatal) stopLoad(fatal.Reason);
                else if (writer.GaveUp || writer.FailingFor > stall)
                    // The fault may not be known yet: a write waiting out a lock learns of it only at the busy timeout.
                    stopLoad(writer.Fault is { } fault
                        ? $"{fault.Reason} for {writer.FailingFor.TotalSeconds:N0} s"
                        : $"storing samples has made no progress for {writer.FailingFor.TotalSeconds:N0} s");
            }
        }
        catch (OperationCanceledException)
        {
        }
    }
}
