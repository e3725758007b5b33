using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Agents;

// What the agents' links hand the run: control frames, sample frames and lost links.
public sealed partial class AgentRun
{
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

    static EnvironmentSnapshot? TryParse(string? json) => TryParseEnvironment(json);

    /// <summary>An agent's environment as it sent it; null when it sent none or nothing readable.</summary>
    internal static EnvironmentSnapshot? TryParseEnvironment(string? json) => json is null ? null : TryParse<EnvironmentSnapshot>(json);

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
