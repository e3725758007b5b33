using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Processing.Claiming;

/// <summary>
/// Claims queued runs and sees each through, at most <see cref="MaxInFlight"/> at a time: the loop every claimer
/// of runs shares (the runner, and the dashboard's coordinator of runs over agents, which claims only runs with
/// agents: <see cref="WithAgents"/>). It first ends the runs its store's runner left running when its process
/// ended, then polls: <see cref="EachPoll"/> (the runner's chores), then claims while there is room. A failing
/// poll (a locked or full database) is logged at most once a minute and backed off: 1, 2, 4 … polls, 30 s at most.
/// </summary>
public sealed class ClaimLoop(RunStore store, ILogger logger)
{
    static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(30);

    /// <summary>Who claims, as its log says it: "Runner loop", "The agents' coordinator".</summary>
    public required string Name { get; init; }

    public bool WithAgents { get; init; }
    public int MaxInFlight { get; init; } = 1;
    public TimeSpan Poll { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Before each claim, in the same error handling (recovering stale runs, firing schedules).</summary>
    public Func<CancellationToken, Task>? EachPoll { get; init; }

    /// <summary>Told of each poll that went through, and of each that failed with why (the runner's health check).</summary>
    public RunnerPulse? Pulse { get; init; }

    /// <summary>Sees a claimed run through; it must end the run whatever happens (<see cref="RunProcessor.ProcessAsync"/>).</summary>
    public async Task RunAsync(Func<Run, CancellationToken, Task> process, CancellationToken stoppingToken)
    {
        var inFlight = new List<Task>();
        var quiet = new QuietLog(logger, TimeSpan.FromMinutes(1));
        var failures = 0;
        var recovered = false;
        while (!stoppingToken.IsCancellationRequested)
        {
            // First, whatever else fails: a finished task left in the list makes WhenAny below return at once.
            inFlight.RemoveAll(t => t.IsCompleted);
            try
            {
                if (!recovered)
                {
                    // Runs still 'running' under this claimer's name belong to a process of ours that died: end them now.
                    var own = await store.RecoverAsync(ownOnly: true, stoppingToken);
                    if (own > 0) logger.LogWarning("{Name}: recovered {Count} run(s) its process left running when it ended", Name, own);
                    recovered = true;
                }
                if (EachPoll is not null) await EachPoll(stoppingToken);
                while (inFlight.Count < MaxInFlight && await store.TryClaimAsync(stoppingToken, WithAgents) is { } run)
                    inFlight.Add(process(run, stoppingToken));
                Pulse?.Beat();
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
                Pulse?.Fail(reason);
                quiet.Error(ex, $"{Name} failed: {reason}; retrying with backoff.");
            }

            var wait = failures == 0 ? Poll : TimeSpan.FromTicks(Math.Min(Poll.Ticks << Math.Min(failures, 10), MaxBackoff.Ticks));
            var wake = Task.Delay(wait, stoppingToken);
            await Task.WhenAny(inFlight.Append(wake));
        }
        await Task.WhenAll(inFlight);
    }
}
