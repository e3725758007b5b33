using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Runner.Execution;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Scheduling;

/// <summary>
/// The background runner: recovers runs orphaned by a crash, fires cron schedules, and claims queued runs,
/// at most <see cref="RunnerOptions.MaxParallelRuns"/> at a time.
/// </summary>
public sealed class RunnerService(
    RunStore store, CronScheduler cron, RunProcessor processor, RunnerPulse pulse, BenchmarkKinds kinds, IEnumerable<IBenchmarkExecutor> executors,
    IOptions<RunnerOptions> options, ILogger<RunnerService> logger) : BackgroundService
{
    static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(30);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var inFlight = new List<Task>();
        var quiet = new QuietLog(logger, TimeSpan.FromMinutes(1));
        var failures = 0;
        var recovered = false;
        logger.LogInformation("Runner {Name} started", store.RunnerName);
        foreach (var kind in kinds.All.Where(k => executors.All(e => e.ParametersType != k.ParametersType)))
            logger.LogError("No executor for benchmark kind '{Kind}': its runs will fail. Add a BenchmarkExecutor<{Parameters}> to src/Runner.", kind.Name, kind.ParametersType.Name);
        if (options.Value.SelfWarmupRequests > 0)
        {
            try
            {
                await Http.SelfWarmup.RunAsync(options.Value.SelfWarmupRequests, logger, stoppingToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException || !stoppingToken.IsCancellationRequested)
            {
                logger.LogWarning(ex, "Self warm-up failed; runs are taken without it");
            }
        }
        while (!stoppingToken.IsCancellationRequested)
        {
            // First, whatever else fails: a finished task left in the list makes WhenAny below return at once.
            inFlight.RemoveAll(t => t.IsCompleted);
            try
            {
                if (!recovered)
                {
                    // Runs still 'running' under this runner's name belong to a process of ours that died: end them now.
                    var own = await store.RecoverAsync(ownOnly: true, stoppingToken);
                    if (own > 0) logger.LogWarning("Recovered {Count} run(s) this runner left running when its process ended", own);
                    recovered = true;
                }
                var stale = await store.RecoverAsync(ownOnly: false, stoppingToken);
                if (stale > 0) logger.LogWarning("Ended {Count} run(s) whose runner stopped sending heartbeats", stale);
                await cron.EnqueueDueAsync(stoppingToken);

                while (inFlight.Count < options.Value.MaxParallelRuns && await store.TryClaimAsync(stoppingToken) is { } run)
                    inFlight.Add(processor.ProcessAsync(run, stoppingToken));
                pulse.Beat();
                failures = 0;
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex)
            {
                failures++;
                var fault = StorageFault.Of(ex);
                if (fault is not null) StorageFault.ForgetConnections();
                var reason = fault?.Reason ?? $"{ex.GetType().Name}: {ex.Message}";
                pulse.Fail(reason);
                quiet.Error(ex, $"Runner loop failed: {reason}; retrying with backoff.");
            }

            // Back off on the loop's own errors (a full or locked database): 1, 2, 4 … 30 polls' worth at most.
            var wait = failures == 0
                ? TimeSpan.FromMilliseconds(options.Value.PollIntervalMs)
                : TimeSpan.FromTicks(Math.Min(TimeSpan.FromMilliseconds(options.Value.PollIntervalMs).Ticks << Math.Min(failures, 10), MaxBackoff.Ticks));
            var wake = Task.Delay(wait, stoppingToken);
            await Task.WhenAny(inFlight.Append(wake));
        }
        await Task.WhenAll(inFlight);
    }
}
