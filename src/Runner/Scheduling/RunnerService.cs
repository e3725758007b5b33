using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Scheduling;

/// <summary>
/// The background runner: recovers runs orphaned by a crash, fires cron schedules, and claims queued runs,
/// at most <see cref="RunnerOptions.MaxParallelRuns"/> at a time (<see cref="ClaimLoop"/>).
/// </summary>
public sealed class RunnerService(
    RunStore store, CronScheduler cron, RunProcessor processor, RunnerPulse pulse, KindExecutors executors,
    IOptions<RunnerOptions> options, ILogger<RunnerService> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        logger.LogInformation("Runner {Name} started", store.RunnerName);
        foreach (var kind in executors.Unserved)
            logger.LogError("No executor for benchmark kind '{Kind}': its runs will fail. Add a BenchmarkExecutor<{Parameters}> to src/Runner.", kind.Name, kind.ParametersType.Name);
        if (options.Value.SelfWarmupRequests > 0)
        {
            try
            {
                await SelfWarmup.RunAsync(executors.All, options.Value.SelfWarmupRequests, logger, stoppingToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException || !stoppingToken.IsCancellationRequested)
            {
                logger.LogWarning(ex, "Self warm-up failed; runs are taken without it");
            }
        }
        var loop = new ClaimLoop(store, logger)
        {
            Name = "Runner loop", MaxInFlight = options.Value.MaxParallelRuns, Poll = TimeSpan.FromMilliseconds(options.Value.PollIntervalMs), Pulse = pulse,
            EachPoll = async ct =>
            {
                var stale = await store.RecoverAsync(ownOnly: false, ct);
                if (stale > 0) logger.LogWarning("Ended {Count} run(s) whose runner stopped sending heartbeats", stale);
                await cron.EnqueueDueAsync(ct);
            },
        };
        await loop.RunAsync((run, ct) => processor.ProcessAsync(run, ct), stoppingToken);
    }
}
