using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Agents;

/// <summary>How a shard of a run spread over agents went, as its run's page shows it.</summary>
public enum ShardStatus
{
    /// <summary>Waiting for an agent to take it, or for the agent to say it is ready.</summary>
    Waiting,
    Ready,
    Running,

    /// <summary>Its load ended and every sample frame it sent is stored.</summary>
    Done,

    /// <summary>Its agent's link ended after the start: the samples stored before that are kept.</summary>
    Lost,

    /// <summary>Stopped by the dashboard (a cancel, another shard's agent lost, the run's sample budget, a run that never started).</summary>
    Stopped,

    /// <summary>Its agent could not run it (its target policy refused the target, its load failed).</summary>
    Failed,
}

/// <summary>
/// One shard of a run spread over runner agents, stored with the run (<see cref="Run.AgentsJson"/>):
/// which agent held it, how far apart from the planned start it began, and how it ended. Its latency figures
/// come from its samples (<see cref="Statistics.ShardStatistics"/>), like the run's own.
/// </summary>
/// <param name="StartSkewMs">When the agent started, on the dashboard's clock, minus the planned start: off by at most <paramref name="ClockErrorMs"/> (half the round trip its clock offset was estimated over).</param>
/// <param name="Samples">Samples the agent said it measured, once its load ended; the samples stored are counted from the database.</param>
/// <param name="Received">Samples the dashboard has received from it so far (what a live view shows).</param>
/// <param name="Turns">In a run on each agent (<see cref="OnEach"/>): the turns it completed; null for a divided load.</param>
/// <param name="TurnStarts">
/// In a run on each agent: the index of the first sample of each of its turns. An agent that ends one round and leads
/// the next takes two turns in a row, which its samples alone cannot tell apart; its verdicts judge turns.
/// </param>
public sealed record AgentShardRow(
    int Shard, string? Agent, string? Machine, int Connections, ShardStatus Status, string? Reason,
    double? StartSkewMs, double? ClockErrorMs, long Samples, EnvironmentSnapshot? Environment, long Received = 0, int? Turns = null, IReadOnlyList<int>? TurnStarts = null)
{
    public static IReadOnlyList<AgentShardRow> Parse(string? json) => json is null ? [] : Json.Deserialize<List<AgentShardRow>>(json);

    /// <summary>Every agent's turn starts of a run on each agent (<see cref="TurnStarts"/>), from its stored rows.</summary>
    public static IReadOnlySet<int> AllTurnStarts(string? json) => Parse(json).SelectMany(r => r.TurnStarts ?? []).ToHashSet();
}
