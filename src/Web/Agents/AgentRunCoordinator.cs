using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Processing.Executing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// The dashboard's side of runs spread over runner agents. It lives where the agents link (the dashboard's
/// process, whichever process runs the dashboard's own runner), claims queued runs that ask for agents (a
/// runner never claims them: <see cref="RunStore.TryClaimAsync"/>) through the <see cref="ClaimLoop"/> a runner uses,
/// one at a time and within the database's limit of parallel runs, and sees each through the
/// <see cref="RunProcessor"/> with an <see cref="AgentRun"/> as its executor (an <see cref="OnEachRun"/> for the same workload
/// on each named agent in turn). The agents' links (the dashboard's
/// WebSocket endpoint) hand it the frames, samples and losses of the run under way (<see cref="Current"/>).
/// </summary>
public sealed class AgentRunCoordinator(IServiceProvider services, AgentRegistry registry, BenchmarkKinds kinds, IOptions<AgentRunOptions> options,
    ILogger<AgentRunCoordinator> logger) : BackgroundService
{
    volatile IAgentsRun? current;

    /// <summary>The run on agents under way now, if any.</summary>
    public IAgentsRun? Current => current;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        // A runner identity of its own: its runs are not the dashboard runner's, whose recovery ends its own at a restart.
        using var identity = ActivatorUtilities.CreateInstance<RunnerIdentity>(services);
        var store = ActivatorUtilities.CreateInstance<RunStore>(services, identity);
        var processor = ActivatorUtilities.CreateInstance<RunProcessor>(services, store, new KindExecutors([], []));
        // One run at a time: the agents linked now are all of its shards' candidates.
        var loop = new ClaimLoop(store, logger) { Name = "The agents' coordinator", WithAgents = true, MaxInFlight = 1, Poll = TimeSpan.FromMilliseconds(500) };
        await loop.RunAsync(async (run, ct) =>
        {
            var agentRun = Plan(run);
            current = agentRun;
            try
            {
                await processor.ProcessAsync(run, ct, agentRun);
            }
            finally
            {
                current = null;
            }
        }, stoppingToken);
    }

    /// <summary>
    /// The whole workload on each named agent in turn (<see cref="OnEachRun"/>), or the run's shards as its kind
    /// divides its load; a run that cannot be divided fails saying why.
    /// </summary>
    IAgentsRun Plan(Run run)
    {
        ShardSplit split;
        IReadOnlyList<string> series = [];
        try
        {
            var kind = kinds.Get(run.Kind);
            var parameters = kind.Deserialize(run.ParametersJson);
            // The agents measure with the kind's own series; the run names them per agent as they arrive.
            if (OnEach.Parse(run.OnEachJson) is { } onEach)
                return new OnEachRun(run, onEach, kind.PlannedSeries(parameters), registry, options.Value, (json, ct) => SaveRowsAsync(run.Id, json, ct), logger);
            split = kind.Split(parameters, run.Agents ?? 1);
            series = kind.PlannedSeries(parameters);
        }
        catch (Exception ex)
        {
            // Claimed already: the processor must still end it, failed with why.
            split = ShardSplit.Refused($"its parameters could not be divided: {ex.Message}");
        }
        return new AgentRun(run, split, series, registry, options.Value, (json, ct) => SaveRowsAsync(run.Id, json, ct), logger);
    }

    async Task SaveRowsAsync(long runId, string json, CancellationToken ct)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(set => set.SetProperty(r => r.AgentsJson, json), ct);
    }
}
