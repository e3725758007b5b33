using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// One run spread over runner agents, as the dashboard sees it through; the run's executor inside the
/// <see cref="RunProcessor"/> a runner uses, so its samples are stored, its heartbeat kept and its outcome recorded
/// exactly as a local run's. It leases each shard to a linked agent (a new epoch per lease) and waits until every
/// one is ready, re-leasing the shard of an agent lost meanwhile; a barrier not met in
/// <see cref="AgentRunOptions.BarrierSeconds"/> fails the run saying how many joined. Then it names a start
/// time <see cref="AgentProtocol.StartLead"/> ahead on its own clock, takes each agent's report of when it started
/// (its skew), and stores the samples that come: each once and in order (<see cref="ShardInbox"/>), numbered
/// anew as they arrive, their offsets moved to the planned start and their connections numbered after the
/// earlier shards'. An agent lost after the start ends the run interrupted, naming it; the other agents are
/// stopped and what they measured is kept.
/// </summary>
public sealed partial class AgentRun(Run run, ShardSplit split, IReadOnlyList<string> series, AgentRegistry registry, AgentRunOptions options,
    Func<string, CancellationToken, Task> saveRows, ILogger logger) : IAgentsRun
{
    /// <summary>How long stopped agents have to send what they measured.</summary>
    static readonly TimeSpan Drain = AgentProtocol.Lease;

    readonly Lock gate = new();
    readonly ShardState[] shards = split.Parts.Select((p, i) => new ShardState(i, Json.Serialize(p.Parameters),
        split.Parts.Take(i).Sum(q => q.Connections), p.Connections)).ToArray();
    readonly ShardInbox inbox = new();
    readonly SemaphoreSlim changed = new(0);
    RunContext? context;
    int nextIndex = -1;
    long plannedStartUs;
    bool started, closed;
    string? failure, lost;


    public async Task ExecuteAsync(RunContext context, CancellationToken ct)
    {
        this.context = context;
        if (split.Refusal is { } refusal) throw new InvalidOperationException($"agents: {refusal}");
        try
        {
            await GatherAsync(ct);
            await StartAsync(ct);
            await MeasureAsync(ct);
        }
        finally
        {
            await StopAllAsync("the run ended"); // whatever ended it, no agent goes on loading for it
            lock (gate) closed = true;
            await SaveRowsAsync();
        }
    }

    /// <summary>Stores the agents' rows for the run's page; a locked database must not end the run, and the end stores them again.</summary>
    async Task SaveRowsAsync()
    {
        try
        {
            await saveRows(RowsJson(), CancellationToken.None);
        }
        catch (Exception ex)
        {
            logger.LogWarning(ex, "Run {RunId}: its agents' rows could not be stored", run.Id);
        }
    }

    string RowsJson()
    {
        lock (gate) return Json.Serialize(shards.Select(s => s.Row()).ToList());
    }


    async Task Wait(TimeSpan most, CancellationToken ct)
    {
        try
        {
            await changed.WaitAsync(most, ct);
        }
        catch (OperationCanceledException)
        {
            // Seen by the caller's loop, which stops the agents first.
        }
    }

    async Task StopAllAsync(string why)
    {
        List<(AgentState Agent, AgentFrame Frame)> stops;
        lock (gate)
        {
            // Agent and epoch taken under the lock: a lost agent's shard is let go (its agent null) by OnUnlinked.
            var running = shards.Where(s => s.Agent is not null && s.Status is not (ShardStatus.Lost or ShardStatus.Failed) && !s.Complete && !s.StopAsked).ToList();
            foreach (var s in running) s.StopAsked = true;
            // Before the start no agent says done: a shard that never ran is stopped here, so its row does not stay "ready".
            if (!started)
                foreach (var s in shards.Where(s => s.Status is ShardStatus.Waiting or ShardStatus.Ready))
                {
                    s.Status = ShardStatus.Stopped;
                    s.Reason ??= why;
                }
            stops = running.Select(s => (s.Agent!, new AgentFrame { Type = AgentFrameTypes.Stop, RunId = run.Id, Shard = s.Index, Epoch = s.Epoch, Reason = why })).ToList();
        }
        foreach (var (agent, frame) in stops) await TrySendAsync(agent, frame);
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
            // Its lease notices a broken link, and the shard is leased again or counted lost.
            logger.LogDebug(ex, "Run {RunId}: a frame to agent {Agent} was not sent", run.Id, agent.Name);
        }
    }
}
