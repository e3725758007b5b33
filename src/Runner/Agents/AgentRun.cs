using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// One run spread over runner agents, as the dashboard sees it through (issue 16); the run's executor inside the
/// runner's <see cref="RunProcessor"/>, so its samples are stored, its heartbeat kept and its outcome recorded
/// exactly as a local run's. It leases each shard to a linked agent (a new epoch per lease) and waits until every
/// one is ready, re-leasing the shard of an agent lost meanwhile; a barrier not met in
/// <see cref="AgentRunOptions.BarrierSeconds"/> fails the run saying how many joined. Then it names a start
/// time <see cref="AgentProtocol.StartLead"/> ahead on its own clock, takes each agent's report of when it started
/// (its skew), and stores the samples that come: each once and in order (<see cref="ShardInbox"/>), numbered
/// anew as they arrive, their offsets moved to the planned start and their connections numbered after the
/// earlier shards'. An agent lost after the start ends the run interrupted, naming it; the other agents are
/// stopped and what they measured is kept.
/// </summary>
public sealed class AgentRun(Run run, ShardSplit split, IReadOnlyList<string> series, AgentRegistry registry, AgentRunOptions options,
    Func<string, CancellationToken, Task> saveRows, ILogger logger) : IBenchmarkExecutor
{
    /// <summary>How long stopped agents have to send what they measured.</summary>
    static readonly TimeSpan Drain = AgentProtocol.Lease;
    static long epochs;

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

    public string Kind => run.Kind;

    sealed class ShardState(int index, string parametersJson, int connectionBase, int connections)
    {
        public int Index => index;
        public string ParametersJson => parametersJson;
        public int ConnectionBase => connectionBase;
        public int Connections => connections;
        public AgentState? Agent;
        public long Epoch;
        public ShardStatus Status = ShardStatus.Waiting;
        public string? Reason;
        public double? SkewMs, ClockErrorMs;
        public long SkewNs, AgentSamples, Received;
        public long? Frames;
        public bool StopAsked;
        public EnvironmentSnapshot? Environment;

        public long FramesStored;

        /// <summary>Its agent said done, and every frame it sent is stored.</summary>
        public bool Complete => Frames is { } f && FramesStored >= f;

        public AgentShardRow Row() => new(Index, Agent?.Name, Agent?.Machine, Connections, Status, Reason, SkewMs, ClockErrorMs, AgentSamples, Environment, Received);
    }

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
                    shard.Epoch = Interlocked.Increment(ref epochs);
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
                        + "start more agents (README, \"Runner agents on other machines\") or ask for fewer.";
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

    /// <summary>A control frame from an agent about this run.</summary>
    public void OnFrame(AgentState agent, AgentFrame frame)
    {
        lock (gate)
        {
            if (closed || frame.RunId != run.Id || frame.Shard is not { } index || index < 0 || index >= shards.Length) return;
            var shard = shards[index];
            if (shard.Agent != agent || shard.Epoch != frame.Epoch) return; // an older lease's
            switch (frame.Type)
            {
                case AgentFrameTypes.Ready when shard.Status == ShardStatus.Waiting:
                    if (frame.Busy == true)
                    {
                        // Still finishing an earlier run's shard: the shard is leased again, to it or another, until the barrier's timeout.
                        shard.Agent = null;
                        shard.Reason = $"{agent.Name} was busy: {frame.Reason}";
                    }
                    else if (frame.Reason is { } refused)
                    {
                        shard.Status = ShardStatus.Failed;
                        shard.Reason = refused;
                        failure = $"Agent {agent.Name} cannot run shard {index}: {refused}";
                    }
                    else
                    {
                        shard.Status = ShardStatus.Ready;
                        shard.Reason = null;
                        shard.Environment = TryParse(frame.EnvironmentJson);
                    }
                    break;
                case AgentFrameTypes.Started when shard.Status == ShardStatus.Ready && frame.DashboardTimeUs is { } at:
                    shard.Status = ShardStatus.Running;
                    shard.SkewMs = (at - plannedStartUs) / 1000.0;
                    // A start a little before the planned one is within the clock's error: the offsets count it as on time.
                    shard.SkewNs = Math.Max(0, (at - plannedStartUs) * 1000);
                    shard.ClockErrorMs = frame.RoundTripMs / 2;
                    break;
                case AgentFrameTypes.Done when shard.Status is ShardStatus.Ready or ShardStatus.Running:
                    shard.AgentSamples = frame.Samples ?? 0;
                    shard.Frames = frame.Frames ?? 0;
                    shard.Status = frame.Failed == true ? ShardStatus.Failed : shard.StopAsked || frame.Reason is not null ? ShardStatus.Stopped : ShardStatus.Done;
                    shard.Reason = frame.Reason;
                    // Every shard is given some of the load: one that finished on its own having measured nothing failed.
                    if (shard.Status == ShardStatus.Done && shard.AgentSamples == 0)
                    {
                        shard.Status = ShardStatus.Failed;
                        shard.Reason = "it said done having measured no samples, though its shard asked for some";
                    }
                    if (frame.NotesJson is { } notes && TryParse<RunNotes>(notes) is { } parsed) context?.Notes.AddFrom(parsed, $"Agent {agent.Name}");
                    break;
            }
        }
        changed.Release();
    }

    /// <summary>A sample frame from an agent: stored when it is the next of a shard it holds; returns the acknowledgement to send, or null.</summary>
    public AgentFrame? OnSamples(AgentState agent, ReadOnlySpan<byte> frame)
    {
        var (header, samples) = SampleFrames.Decode(frame, series);
        try
        {
            lock (gate)
            {
                if (closed || header.Shard < 0 || header.Shard >= shards.Length || context is null) return null;
                var shard = shards[header.Shard];
                if (shard.Agent != agent || !started) return null;
                var (verdict, acked) = inbox.Accept(header);
                if (verdict == FrameVerdict.NotOwner) return null;
                if (verdict == FrameVerdict.Accepted)
                {
                    foreach (var s in samples)
                    {
                        s.Index = ++nextIndex;
                        s.OffsetNs += shard.SkewNs;
                        s.Connection += shard.ConnectionBase;
                        s.Shard = shard.Index;
                        context.Record(s);
                    }
                    shard.Received += samples.Count;
                    shard.FramesStored++;
                }
                return new AgentFrame { Type = AgentFrameTypes.Ack, RunId = run.Id, Shard = header.Shard, Epoch = header.Epoch, Acked = acked };
            }
        }
        finally
        {
            changed.Release();
        }
    }

    /// <summary>An agent's link ended: before the start its shard is leased again; after it, the shard is lost and the run ends interrupted.</summary>
    public void OnUnlinked(AgentState agent, string reason)
    {
        lock (gate)
        {
            foreach (var shard in shards.Where(s => s.Agent == agent))
            {
                if (!started)
                {
                    if (shard.Status is not (ShardStatus.Waiting or ShardStatus.Ready)) continue; // failed or stopped already: it stays so
                    shard.Agent = null;
                    shard.Status = ShardStatus.Waiting;
                    continue;
                }
                if (shard.Complete || shard.Status == ShardStatus.Failed) continue;
                shard.Status = ShardStatus.Lost;
                shard.Reason = reason;
                var after = (AgentProtocol.NowUs() - plannedStartUs) / 1e6;
                lost ??= $"Agent {agent.Name} was lost {after:N1} s into the run ({reason}). The {shard.Received:N0} samples it had sent, and the other agents' until they were stopped, are kept.";
            }
        }
        changed.Release();
    }

    static EnvironmentSnapshot? TryParse(string? json) => json is null ? null : TryParse<EnvironmentSnapshot>(json);

    static T? TryParse<T>(string json) where T : class
    {
        try
        {
            return Json.Deserialize<T>(json);
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }
}
