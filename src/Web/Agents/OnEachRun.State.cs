using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Web.Agents;

public sealed partial class OnEachRun
{
    /// <summary>One named agent over the whole run: its turns, what it recorded, what reached the dashboard, and why it is out, if it is.</summary>
    sealed class AgentTurns(int index, string name)
    {
        public int Index => index;
        public string Name => name;
        public ShardStatus Status = ShardStatus.Waiting;
        public string? Reason, Machine;
        public EnvironmentSnapshot? Environment;
        public double? SkewMs, ClockErrorMs;
        public long Samples, Received;
        public int TurnsDone;

        /// <summary>The first sample index of each of its turns that sent any (<see cref="AgentShardRow.TurnStarts"/>).</summary>
        public readonly List<int> TurnStarts = [];

        /// <summary>It said ready once: from then its link ending loses it.</summary>
        public bool Joined;

        /// <summary>The link it said ready over.</summary>
        public AgentState? Link;

        /// <summary>Failed, lost or stopped: its remaining turns are skipped.</summary>
        public bool Out;

        public void End(ShardStatus status, string reason)
        {
            Out = true;
            Status = status;
            Reason = reason;
        }

        public AgentShardRow Row(Turn? current, int connections)
        {
            var status = !Out && current?.Agent == this ? current.Status : Status;
            return new(Index, Name, Machine, connections, status, Reason, SkewMs, ClockErrorMs, Samples, Environment, Received, TurnsDone, [.. TurnStarts]);
        }
    }

    /// <summary>The turn under way: the lease to one agent's link, where its load stands and how many of its frames are stored.</summary>
    sealed class Turn(AgentTurns agent, AgentState link, long epoch, int round)
    {
        public AgentTurns Agent => agent;
        public AgentState Link => link;
        public long Epoch => epoch;
        public int Round => round;
        public ShardInbox Inbox { get; } = Leased(agent.Index, epoch);
        public ShardStatus Status = ShardStatus.Waiting;
        public string? Reason;
        public long PlannedStartUs, OffsetNs;
        public long? Frames;
        public long FramesStored;

        /// <summary>Some of its samples are stored: the first of them began it (<see cref="AgentTurns.TurnStarts"/>).</summary>
        public bool HasSamples;
        public bool StopAsked;

        /// <summary>Its lease was let go before the agent said ready (busy, or its link ended): leased again.</summary>
        public bool Released;

        /// <summary>Lost or refused: nothing more is awaited from it.</summary>
        public bool Ended;

        /// <summary>Its agent said done, and every frame it sent is stored.</summary>
        public bool Complete => Frames is { } f && FramesStored >= f;

        /// <summary>A sample channel of its own: the agent numbers each lease's frames from 0.</summary>
        static ShardInbox Leased(int shard, long epoch)
        {
            var inbox = new ShardInbox();
            inbox.Lease(shard, epoch);
            return inbox;
        }
    }
}
