using BenchDashboard.Core.Agents;
using BenchDashboard.Processing.Executing;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// The run the agents' coordinator has under way, as the agents' links see it: whether a load divided between
/// agents (<see cref="AgentRun"/>) or the whole workload on each named agent in turn (<see cref="OnEachRun"/>), it
/// takes their control frames, their sample frames and the end of their links, and is the run's executor.
/// </summary>
public interface IAgentsRun : IBenchmarkExecutor
{
    void OnFrame(AgentState agent, AgentFrame frame);

    /// <summary>Returns the acknowledgement to send, or null when the frame is not this run's to store.</summary>
    AgentFrame? OnSamples(AgentState agent, ReadOnlySpan<byte> frame);

    void OnUnlinked(AgentState agent, string reason);
}

/// <summary>Lease epochs, one sequence for every run over agents: an agent matches acknowledgements to its lease by it.</summary>
static class LeaseEpochs
{
    static long last;

    public static long Next() => Interlocked.Increment(ref last);
}
