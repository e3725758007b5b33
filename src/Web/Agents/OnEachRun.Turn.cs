using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Web.Agents;

// One agent's turn: lease it to that agent, wait until it is ready, start it, and wait until its samples are stored.
public sealed partial class OnEachRun
{
    async Task TakeTurnAsync(AgentTurns agent, int round, CancellationToken ct)
    {
        if (!await LeaseAsync(agent, round, ct)) return;
        Turn current;
        lock (gate)
        {
            current = turn!;
            current.PlannedStartUs = AgentProtocol.NowUs() + (long)AgentProtocol.StartLead.TotalMicroseconds;
            runStartUs ??= current.PlannedStartUs; // the run's time line begins with its first turn
        }
        await TrySendAsync(current.Link, new AgentFrame { Type = AgentFrameTypes.Start, RunId = run.Id, Shard = agent.Index, Epoch = current.Epoch, DashboardTimeUs = current.PlannedStartUs });
        logger.LogInformation("Run {RunId}: round {Round} of {Rounds}, {Agent}'s turn", run.Id, round + 1, plan.Rounds, agent.Name);
        await SaveRowsAsync();
        var nextSave = DateTimeOffset.UtcNow.AddSeconds(2);
        while (true)
        {
            lock (gate)
            {
                if (current.Complete || current.Ended) break;
                // A linked agent that never says it started holds the run as a lost one would.
                if (current.Status == ShardStatus.Ready && AgentProtocol.NowUs() > current.PlannedStartUs + (long)AgentProtocol.Lease.TotalMicroseconds)
                    Lose(current, $"it did not say it started within {AgentProtocol.Lease.TotalSeconds:N0} s of its turn's start");
            }
            if (ct.IsCancellationRequested)
            {
                await StopTurnAsync("the run was stopped");
                ct.ThrowIfCancellationRequested();
            }
            if (DateTimeOffset.UtcNow > nextSave)
            {
                await SaveRowsAsync();
                nextSave = DateTimeOffset.UtcNow.AddSeconds(2);
            }
            await Wait(TimeSpan.FromMilliseconds(250), ct);
        }
        // Taken as lost while still linked (it never said it started): it must not load on into the next agent's turn.
        if (current is { Ended: true, Status: ShardStatus.Lost } && current.Link.Linked)
            await TrySendAsync(current.Link, new AgentFrame { Type = AgentFrameTypes.Stop, RunId = run.Id, Shard = agent.Index, Epoch = current.Epoch, Reason = "the dashboard took it as lost" });
        lock (gate)
        {
            if (current.Complete && !agent.Out)
            {
                if (current.Status == ShardStatus.Done) agent.TurnsDone++;
                else agent.End(current.Status, $"{agent.Name} {(current.Status == ShardStatus.Failed ? "failed" : "stopped")} in {RoundOf(round)}: {current.Reason}; "
                    + $"its {agent.Received:N0} samples are kept");
            }
            turn = null;
        }
        await SaveRowsAsync();
    }

    /// <summary>
    /// Leases the run to the named agent until it says ready; at its first turn it has the barrier to link and say so.
    /// False when it did not (its row says why) or it is out already.
    /// </summary>
    async Task<bool> LeaseAsync(AgentTurns agent, int round, CancellationToken ct)
    {
        var deadline = DateTimeOffset.UtcNow.AddSeconds(options.BarrierSeconds);
        while (true)
        {
            ct.ThrowIfCancellationRequested();
            AgentFrame? assign = null;
            AgentState? link = null;
            lock (gate)
            {
                if (agent.Out)
                {
                    if (turn?.Agent == agent) turn = null;
                    return false;
                }
                if (turn is { Status: ShardStatus.Ready } ready && ready.Agent == agent) return true;
                if (turn is null || turn.Agent != agent || turn.Released)
                {
                    link = LinkOf(agent.Name);
                    if (link is not null)
                    {
                        turn = new Turn(agent, link, LeaseEpochs.Next(), round);
                        if (agent.Status == ShardStatus.Waiting) agent.Reason = null;
                        assign = new AgentFrame
                        {
                            Type = AgentFrameTypes.Assign, RunId = run.Id, Shard = agent.Index, Epoch = turn.Epoch, Kind = run.Kind,
                            ParametersJson = run.ParametersJson, Series = kindSeries, WholeWorkload = true,
                        };
                    }
                }
            }
            if (assign is not null) await TrySendAsync(link!, assign);
            if (DateTimeOffset.UtcNow > deadline)
            {
                lock (gate)
                {
                    turn = null;
                    if (!agent.Out)
                        agent.End(ShardStatus.Failed, agent.Joined
                            ? $"{agent.Name} did not say ready within {options.BarrierSeconds} s in {RoundOf(round)}; its {agent.Received:N0} samples are kept"
                            : $"{agent.Name} did not join within {options.BarrierSeconds} s");
                }
                return false;
            }
            await Wait(TimeSpan.FromMilliseconds(200), ct);
        }
    }

    /// <summary>Tells the agent of the turn under way to stop, and gives it <see cref="Drain"/> to send what it measured.</summary>
    async Task StopTurnAsync(string why)
    {
        Turn? stopping;
        lock (gate)
        {
            stopping = turn is { Ended: false, Complete: false, StopAsked: false } t ? t : null;
            if (stopping is not null) stopping.StopAsked = true;
        }
        if (stopping is null) return;
        await TrySendAsync(stopping.Link, new AgentFrame { Type = AgentFrameTypes.Stop, RunId = run.Id, Shard = stopping.Agent.Index, Epoch = stopping.Epoch, Reason = why });
        var until = DateTimeOffset.UtcNow + Drain;
        while (DateTimeOffset.UtcNow < until)
        {
            lock (gate)
                if (stopping.Complete || stopping.Ended || stopping.Status is ShardStatus.Waiting or ShardStatus.Ready) break;
            await Wait(TimeSpan.FromMilliseconds(100), CancellationToken.None);
        }
        lock (gate)
            if (!stopping.Agent.Out) stopping.Agent.End(ShardStatus.Stopped, $"{stopping.Agent.Name} was stopped in {RoundOf(stopping.Round)} ({why}); its {stopping.Agent.Received:N0} samples are kept");
    }

    /// <summary>The turn's agent is gone: its remaining turns are skipped, what it sent is kept. Called under the lock.</summary>
    void Lose(Turn lostTurn, string reason)
    {
        lostTurn.Ended = true;
        lostTurn.Status = ShardStatus.Lost;
        var agent = lostTurn.Agent;
        if (!agent.Out) agent.End(ShardStatus.Lost, $"{agent.Name} was lost in {RoundOf(lostTurn.Round)} ({reason}); its {agent.Received:N0} samples are kept");
    }

    string RoundOf(int round) => $"round {round + 1} of {plan.Rounds}";
}
