using BenchDashboard.Core;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Scheduling;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Takes one claimed run to a final status: starts the sample writer and the heartbeat, runs the kind's
/// executor, waits until every sample is stored, then records the outcome.
/// </summary>
public sealed class RunProcessor(
    IEnumerable<IBenchmarkExecutor> executors, RunStore store, IServiceScopeFactory scopes,
    IOptions<RunnerOptions> options, ILogger<RunProcessor> logger)
{
    public async Task ProcessAsync(Run run, CancellationToken stopping)
    {
        var environmentJson = Json.Serialize(EnvironmentSnapshot.Capture());
        var executor = executors.FirstOrDefault(e => e.Kind == run.Kind);
        if (executor is null)
        {
            await store.FinishAsync(run.Id, RunStatus.Failed, 0, environmentJson, null, null, $"No executor for kind {run.Kind}.", CancellationToken.None);
            return;
        }

        var writer = new SampleWriter(scopes, options.Value.SampleBatchSize, TimeSpan.FromMilliseconds(options.Value.SampleFlushIntervalMs));
        var context = new RunContext(run, writer.Writer);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        var userCancelled = false;

        // The writer gets its own token: samples already taken must still be stored after a cancel.
        using var writerStop = new CancellationTokenSource();
        var writing = writer.WriteAllAsync(writerStop.Token);
        using var heartbeatStop = new CancellationTokenSource();
        var heartbeat = HeartbeatAsync(run.Id, context, () => { userCancelled = true; cancel.Cancel(); }, heartbeatStop.Token);

        RunStatus status;
        string? error = null;
        try
        {
            logger.LogInformation("Run {RunId} ({Kind}) started", run.Id, run.Kind);
            await executor.ExecuteAsync(context, cancel.Token);
            status = RunStatus.Completed;
        }
        catch (OperationCanceledException) when (cancel.IsCancellationRequested)
        {
            status = userCancelled ? RunStatus.Cancelled : RunStatus.Interrupted;
            if (!userCancelled) error = "The runner was shut down during this run. Samples taken before that are kept.";
        }
        catch (Exception ex)
        {
            logger.LogError(ex, "Run {RunId} failed", run.Id);
            status = RunStatus.Failed;
            error = ex.Message;
        }

        writer.Writer.Complete();
        try
        {
            await writing;
        }
        catch (Exception ex)
        {
            logger.LogError(ex, "Storing samples of run {RunId} failed", run.Id);
            status = RunStatus.Failed;
            error = $"Storing samples failed: {ex.Message}";
        }
        heartbeatStop.Cancel();
        await heartbeat;

        await store.FinishAsync(run.Id, status, context.Completed, environmentJson, context.CachingEvidence, context.Notes, error, CancellationToken.None);
        logger.LogInformation("Run {RunId} ended {Status} after {Count} requests", run.Id, status, context.Completed);
        await SummarizeAsync(run.Id);
    }

    /// <summary>Stores the run's key figures now, so trends and regression checks never re-read its samples.</summary>
    async Task SummarizeAsync(long runId)
    {
        try
        {
            await using var scope = scopes.CreateAsyncScope();
            if (await scope.ServiceProvider.GetRequiredService<RunQueries>().FindAsync(runId, CancellationToken.None) is { } finished)
                await scope.ServiceProvider.GetRequiredService<RunHistory>().SummaryAsync(finished, CancellationToken.None);
        }
        catch (Exception ex)
        {
            // Not fatal: the summary is computed again the first time the run is looked at.
            logger.LogWarning(ex, "Summarising run {RunId} failed", runId);
        }
    }

    async Task HeartbeatAsync(long runId, RunContext context, Action onCancelRequested, CancellationToken ct)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(options.Value.HeartbeatIntervalMs));
        try
        {
            while (await timer.WaitForNextTickAsync(ct))
            {
                try
                {
                    if (await store.HeartbeatAsync(runId, context.Completed, ct)) onCancelRequested();
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    // A locked or slow database must not end the run; the next tick tries again.
                    logger.LogWarning(ex, "Heartbeat of run {RunId} failed", runId);
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }
}
