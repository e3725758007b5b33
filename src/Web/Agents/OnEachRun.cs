using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// A run of the same workload on each named agent (<see cref="OnEach"/>), as the dashboard sees it through; like
/// <see cref="AgentRun"/> the executor inside a runner's <see cref="RunProcessor"/>. The agents may share machines
/// (App Service slots on one plan), so they take turns: in each round every agent runs the whole workload once,
/// alone, the round's leader drawn as interleaved variants' are (<see cref="VariantTurns"/>). A turn leases the run
/// to that named agent, waits until it is ready, names its start, stores its samples under the agent's series and
/// waits until it is done and every frame it sent is stored; only then does the next agent's turn begin. An agent
/// that does not join at its first turn, or that is lost or fails later, has its row say why and its remaining
/// turns skipped; the others go on, every sample received is kept, and the run ends failed naming it.
/// </summary>
public sealed partial class OnEachRun(Run run, OnEach plan, IReadOnlyList<string> kindSeries, AgentRegistry registry, AgentRunOptions options,
    Func<string, CancellationToken, Task> saveRows, ILogger logger) : IAgentsRun
{
    /// <summary>How long a stopped agent has to send what it measured.</summary>
    static readonly TimeSpan Drain = AgentProtocol.Lease;

    readonly Lock gate = new();
    readonly AgentTurns[] agents = plan.Agents.Select((name, i) => new AgentTurns(i, name)).ToArray();

    /// <summary>Each agent's connections get numbers of their own in the run: (agent, its connection) → the run's.</summary>
    readonly Dictionary<(int Agent, int Connection), int> connections = [];
    readonly SemaphoreSlim changed = new(0);
    RunContext? context;
    Turn? turn;
    int nextIndex = -1;
    long? runStartUs;
    bool closed;

    public async Task ExecuteAsync(RunContext context, CancellationToken ct)
    {
        this.context = context;
        try
        {
            await AwaitAnyAgentAsync(ct);
            for (var round = 0; round < plan.Rounds; round++)
                foreach (var index in TurnOrder(round, agents.Length))
                    await TakeTurnAsync(agents[index], round, ct);
        }
        catch (OperationCanceledException) when (ct.IsCancellationRequested)
        {
            lock (gate)
                foreach (var a in agents.Where(a => !a.Out && a.TurnsDone < plan.Rounds)) a.End(ShardStatus.Stopped, "the run was stopped");
            throw;
        }
        finally
        {
            await StopTurnAsync("the run ended"); // whatever ended it, no agent goes on loading for it
            lock (gate) closed = true;
            await SaveRowsAsync();
        }
        string? failed;
        lock (gate)
        {
            foreach (var a in agents.Where(a => !a.Out)) a.Status = ShardStatus.Done;
            var dropped = agents.Where(a => a.Out).ToList();
            failed = dropped.Count == 0 ? null
                : string.Join("; ", dropped.Select(a => a.Reason)) + (dropped.Count < agents.Length
                    ? $". {string.Join(", ", agents.Where(a => !a.Out).Select(a => a.Name))} completed all {plan.Rounds} rounds."
                    : ".");
        }
        await SaveRowsAsync();
        if (failed is not null) throw new InvalidOperationException(failed);
    }

    /// <summary>Agents in the order they take their turns in <paramref name="round"/>: from the round's drawn leader on (round 0: the order given).</summary>
    public static IReadOnlyList<int> TurnOrder(int round, int count)
    {
        var first = VariantTurns.First(round, count);
        return Enumerable.Range(0, count).Select(k => (first + k) % count).ToList();
    }

    /// <summary>None of the named agents linked within the barrier: the run fails at once rather than waiting for each in turn.</summary>
    async Task AwaitAnyAgentAsync(CancellationToken ct)
    {
        var deadline = DateTimeOffset.UtcNow.AddSeconds(options.BarrierSeconds);
        while (!plan.Agents.Any(name => LinkOf(name) is not null))
        {
            if (DateTimeOffset.UtcNow > deadline)
            {
                var why = $"did not join within {options.BarrierSeconds} s";
                lock (gate)
                    foreach (var a in agents) a.End(ShardStatus.Failed, $"{a.Name} {why}");
                throw new InvalidOperationException($"None of the agents {string.Join(", ", plan.Agents)} linked within {options.BarrierSeconds} s (Agents:BarrierSeconds): "
                    + "start them with these names (docs/agents.md).");
            }
            await Task.Delay(TimeSpan.FromMilliseconds(200), ct);
        }
    }

    AgentState? LinkOf(string name) => registry.Linked.FirstOrDefault(a => a.Name == name && a.Link is not null);

    /// <summary>Stores the agents' rows for the run's page; a locked database must not end the run, and the end stores them again.</summary>
    async Task SaveRowsAsync()
    {
        try
        {
            string json;
            lock (gate) json = Json.Serialize(agents.Select(a => a.Row(turn, connections.Keys.Count(k => k.Agent == a.Index))).ToList());
            await saveRows(json, CancellationToken.None);
        }
        catch (Exception ex)
        {
            logger.LogWarning(ex, "Run {RunId}: its agents' rows could not be stored", run.Id);
        }
    }

    async Task Wait(TimeSpan most, CancellationToken ct)
    {
        try
        {
            await changed.WaitAsync(most, ct);
        }
        catch (OperationCanceledException)
        {
            // Seen by the caller's loop, which stops the agent first.
        }
    }

    async Task TrySendAsync(AgentState agent, AgentFrame frame)
    {
        try
        {
            using var brief = new CancellationTokenSource(AgentProtocol.Lease);
            if (agent.Link is { } link) await link.SendAsync(frame, brief.Token);
        }
        catch (Exception ex)
        {
            // Its lease notices a broken link, and the turn is counted lost.
            logger.LogDebug(ex, "Run {RunId}: a frame to agent {Agent} was not sent", run.Id, agent.Name);
        }
    }
}
