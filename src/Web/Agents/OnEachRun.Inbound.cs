using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Web.Agents;

// What the agents' links hand the run: control frames, sample frames and lost links; only the turn under way takes them.
public sealed partial class OnEachRun
{
    public void OnFrame(AgentState agent, AgentFrame frame)
    {
        lock (gate)
        {
            if (closed || frame.RunId != run.Id || turn is not { } t || t.Link != agent || frame.Shard != t.Agent.Index || frame.Epoch != t.Epoch) return;
            switch (frame.Type)
            {
                case AgentFrameTypes.Ready when t.Status == ShardStatus.Waiting:
                    if (frame.Busy == true)
                    {
                        // Still finishing another run's shard: leased again after a pause, until the barrier's timeout.
                        t.Released = true;
                        t.Agent.Reason = $"{agent.Name} was busy: {frame.Reason}";
                    }
                    else if (frame.Reason is { } refused)
                    {
                        t.Ended = true;
                        t.Status = ShardStatus.Failed;
                        t.Agent.End(ShardStatus.Failed, $"{agent.Name} cannot run it: {refused}");
                    }
                    else
                    {
                        t.Status = ShardStatus.Ready;
                        t.Agent.Joined = true;
                        t.Agent.Link = agent;
                        // What it recorded when it first said ready describes it (its platform settings, its process).
                        t.Agent.Environment ??= TryParse<EnvironmentSnapshot>(frame.EnvironmentJson);
                        t.Agent.Machine = agent.Machine;
                    }
                    break;
                case AgentFrameTypes.Started when t.Status == ShardStatus.Ready && frame.DashboardTimeUs is { } at && runStartUs is { } start:
                    t.Status = ShardStatus.Running;
                    t.Agent.SkewMs = (at - t.PlannedStartUs) / 1000.0;
                    t.Agent.ClockErrorMs = frame.RoundTripMs / 2;
                    // Its samples' offsets count from its own start: placed on the run's time line from there (a start
                    // a little before the planned one is within the clock's error, and counts as on time).
                    t.OffsetNs = (Math.Max(at, t.PlannedStartUs) - start) * 1000;
                    break;
                case AgentFrameTypes.Done when t.Status is ShardStatus.Ready or ShardStatus.Running:
                    t.Frames = frame.Frames ?? 0;
                    t.Agent.Samples += frame.Samples ?? 0;
                    t.Status = frame.Failed == true ? ShardStatus.Failed : t.StopAsked || frame.Reason is not null ? ShardStatus.Stopped : ShardStatus.Done;
                    t.Reason = frame.Reason;
                    if (t.Status == ShardStatus.Done && (frame.Samples ?? 0) == 0)
                    {
                        t.Status = ShardStatus.Failed;
                        t.Reason = "it said done having measured no samples";
                    }
                    if (frame.NotesJson is { } notes && TryParse<RunNotes>(notes) is { } parsed) context?.Notes.AddFrom(parsed, $"Agent {agent.Name}");
                    break;
            }
        }
        changed.Release();
    }

    public AgentFrame? OnSamples(AgentState agent, ReadOnlySpan<byte> frame)
    {
        var (header, samples) = SampleFrames.Decode(frame, kindSeries);
        try
        {
            lock (gate)
            {
                if (closed || context is null || turn is not { } t || t.Link != agent || header.Shard != t.Agent.Index || t.Status == ShardStatus.Waiting || t.Ended) return null;
                var (verdict, acked) = t.Inbox.Accept(header);
                if (verdict == FrameVerdict.NotOwner) return null;
                if (verdict == FrameVerdict.Accepted)
                {
                    var owner = t.Agent;
                    if (!t.HasSamples && samples.Count > 0)
                    {
                        t.HasSamples = true; // frames are stored in order: this one holds the turn's first sample
                        owner.TurnStarts.Add(nextIndex + 1);
                    }
                    foreach (var s in samples)
                    {
                        s.Index = ++nextIndex;
                        s.OffsetNs += t.OffsetNs;
                        s.Connection = ConnectionOf(owner.Index, s.Connection);
                        s.Shard = owner.Index;
                        s.Series = OnEach.SeriesOf(owner.Name, s.Series);
                        context.Record(s);
                    }
                    owner.Received += samples.Count;
                    t.FramesStored++;
                }
                return new AgentFrame { Type = AgentFrameTypes.Ack, RunId = run.Id, Shard = header.Shard, Epoch = header.Epoch, Acked = acked };
            }
        }
        finally
        {
            changed.Release();
        }
    }

    /// <summary>
    /// An agent's link ended. Before it ever said ready it may link again within its barrier; after that it is lost,
    /// whether in its turn or between turns, and its remaining turns are skipped (a new process is another configuration's state).
    /// </summary>
    public void OnUnlinked(AgentState agent, string reason)
    {
        lock (gate)
        {
            if (closed) return;
            if (turn is { } t && t.Link == agent && !t.Ended && !t.Complete)
            {
                if (t.Agent.Joined) Lose(t, reason);
                else t.Released = true;
            }
            else if (agents.FirstOrDefault(a => a.Name == agent.Name && a.Joined && !a.Out && a.TurnsDone < plan.Rounds) is { } between && between.Link == agent)
                between.End(ShardStatus.Lost, $"{between.Name} was lost between its turns, after {between.TurnsDone} of {plan.Rounds} ({reason}); its {between.Received:N0} samples are kept");
        }
        changed.Release();
    }

    int ConnectionOf(int agent, int connection)
    {
        if (!connections.TryGetValue((agent, connection), out var number)) connections[(agent, connection)] = number = connections.Count;
        return number;
    }

    static T? TryParse<T>(string? json) where T : class
    {
        if (json is null) return null;
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
