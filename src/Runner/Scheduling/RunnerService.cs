using BenchDashboard.Core.Benchmarks;
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
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var inFlight = new List<Task>();
        logger.LogInformation("Runner {Name} started", store.RunnerName);
        foreach (var kind in kinds.All.Where(k => executors.All(e => e.Kind != k.Name)))
            logger.LogError("No executor for benchmark kind '{Kind}': its runs will fail. Add an IBenchmarkExecutor whose Kind is '{Kind}' to src/Runner.", kind.Name, kind.Name);
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                var interrupted = await store.MarkInterruptedAsync(stoppingToken);
                if (interrupted > 0) logger.LogWarning("Marked {Count} orphaned run(s) as interrupted", interrupted);
                await cron.EnqueueDueAsync(stoppingToken);

                inFlight.RemoveAll(t => t.IsCompleted);
                while (inFlight.Count < options.Value.MaxParallelRuns && await store.TryClaimAsync(stoppingToken) is { } run)
                    inFlight.Add(processor.ProcessAsync(run, stoppingToken));
                pulse.Beat();
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex)
            {
                logger.LogError(ex, "Runner loop failed; retrying");
            }

            var wake = Task.Delay(options.Value.PollIntervalMs, stoppingToken);
            await Task.WhenAny(inFlight.Append(wake));
        }
        await Task.WhenAll(inFlight);
    }
}

