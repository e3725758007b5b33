using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Web.Agents;

public sealed partial class AgentRun
{
    /// <summary>A shard of the run: the agent leased it, where its load stands and what reached the dashboard.</summary>
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
}
