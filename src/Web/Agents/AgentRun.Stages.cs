using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Agents;

// The run's three stages: the barrier, the start, and the measuring until every shard is stored.
public sealed partial class AgentRun
{
    /// <summary>The barrier: every shard leased to an agent that said ready, within the timeout.</summary>
    async Task GatherAsync(CancellationToken ct)
    {
        var deadline = DateTimeOffset.UtcNow.AddSeconds(options.BarrierSeconds);
        var nextSave = DateTimeOffset.UtcNow.AddSeconds(1);
        while (true)
        {
            var assignments = new List<(AgentState Agent, AgentFrame Frame)>();
            string? refused;
            lock (gate) refused = failure;
            if (refused is not null || ct.IsCancellationRequested)
            {
                await StopAllAsync("the run did not start");
                ct.ThrowIfCancellationRequested();
                throw new InvalidOperationException(refused);
            }
            lock (gate)
            {
                if (shards.All(s => s.Status == ShardStatus.Ready))
                {
                    // In the same lock as the check: from here a lost agent's shard is lost, not leased again.
                    plannedStartUs = AgentProtocol.NowUs() + (long)AgentProtocol.StartLead.TotalMicroseconds;
                    started = true;
                    return;
                }
                var idle = new Queue<AgentState>(registry.Linked.Where(a => a.Link is not null && shards.All(s => s.Agent != a)));
                foreach (var shard in shards.Where(s => s.Agent is null))
                {
                    if (!idle.TryDequeue(out var agent)) break;
                    shard.Agent = agent;
                    shard.Epoch = LeaseEpochs.Next();
                    inbox.Lease(shard.Index, shard.Epoch);
                    assignments.Add((agent, new AgentFrame
                    {
                        Type = AgentFrameTypes.Assign, RunId = run.Id, Shard = shard.Index, Epoch = shard.Epoch, Kind = run.Kind,
                        ParametersJson = shard.ParametersJson, Series = series,
                    }));
                }
            }
            foreach (var (agent, frame) in assignments) await TrySendAsync(agent, frame);
            if (DateTimeOffset.UtcNow > nextSave)
            {
                await SaveRowsAsync(); // a live view shows who joined while it waits
                nextSave = DateTimeOffset.UtcNow.AddSeconds(1);
            }
            if (DateTimeOffset.UtcNow > deadline)
            {
                string why;
                lock (gate)
                {
                    var ready = shards.Where(s => s.Status == ShardStatus.Ready).Select(s => s.Agent!.Name).ToList();
                    why = $"{ready.Count} of {shards.Length} agents joined within {options.BarrierSeconds} s{(ready.Count > 0 ? $" ({string.Join(", ", ready)})" : "")}: "
                        + "start more agents (docs/agents.md) or ask for fewer.";
                }
                await StopAllAsync("the run did not start: not enough agents joined");
                throw new InvalidOperationException(why);
            }
            await Wait(TimeSpan.FromMilliseconds(200), ct);
        }
    }

    /// <summary>Names the start time, on this dashboard's clock, to every agent.</summary>
    async Task StartAsync(CancellationToken ct)
    {
        List<ShardState> ready;
        lock (gate) ready = shards.ToList();
        foreach (var shard in ready)
            await TrySendAsync(shard.Agent!, new AgentFrame { Type = AgentFrameTypes.Start, RunId = run.Id, Shard = shard.Index, Epoch = shard.Epoch, DashboardTimeUs = plannedStartUs });
        logger.LogInformation("Run {RunId}: {Count} agents start at {At:O}", run.Id, ready.Count, DateTime.UnixEpoch.AddTicks(plannedStartUs * 10));
        await SaveRowsAsync();
    }

    /// <summary>Until every shard is done and stored; a lost agent or a cancel stops the others, which have <see cref="Drain"/> to send the rest.</summary>
    async Task MeasureAsync(CancellationToken ct)
    {
        var nextSave = DateTimeOffset.UtcNow.AddSeconds(2);
        while (true)
        {
            string? interrupted;
            lock (gate)
            {
                if (shards.All(s => s.Complete)) break;
                // An agent still linked that never says it started (its clock far off, its process stuck) holds the
                // run as a lost one would: it is taken as lost a lease after its start was due.
                if (lost is null && AgentProtocol.NowUs() > plannedStartUs + (long)AgentProtocol.Lease.TotalMicroseconds
                    && shards.FirstOrDefault(s => s.Status == ShardStatus.Ready) is { } late)
                {
                    late.Status = ShardStatus.Lost;
                    late.Reason = $"it did not say it started within {AgentProtocol.Lease.TotalSeconds:N0} s of the planned start";
                    lost = $"Agent {late.Agent?.Name} {late.Reason}. The other agents' samples until they were stopped are kept.";
                }
                interrupted = lost;
            }
            if (interrupted is not null || ct.IsCancellationRequested)
            {
                await StopAllAsync(interrupted is not null ? "another agent of the run was lost" : "the run was stopped");
                var until = DateTimeOffset.UtcNow + Drain;
                while (DateTimeOffset.UtcNow < until)
                {
                    lock (gate)
                        if (shards.All(s => s.Complete || s.Status == ShardStatus.Lost)) break;
                    await Wait(TimeSpan.FromMilliseconds(100), CancellationToken.None);
                }
                if (interrupted is not null) throw new RunInterruptedException(interrupted);
                ct.ThrowIfCancellationRequested();
            }
            if (DateTimeOffset.UtcNow > nextSave)
            {
                await SaveRowsAsync();
                nextSave = DateTimeOffset.UtcNow.AddSeconds(2);
            }
            await Wait(TimeSpan.FromMilliseconds(250), ct);
        }
        lock (gate)
        {
            if (shards.FirstOrDefault(s => s.Status == ShardStatus.Failed) is { } failed)
                throw new InvalidOperationException($"Agent {failed.Agent?.Name} could not run shard {failed.Index}: {failed.Reason}");
            // Stopped without being asked (it fell too far behind): its share of the load is missing.
            if (shards.FirstOrDefault(s => s.Status == ShardStatus.Stopped) is { } stopped)
                throw new InvalidOperationException($"Agent {stopped.Agent?.Name} stopped shard {stopped.Index} early: {stopped.Reason}. It measured {stopped.AgentSamples:N0} samples, of which {stopped.Received:N0} reached the dashboard; they are kept.");
        }
    }
}
