using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports;

/// <summary>A shard's row as pages and the API show it: how it ran, and its figures from the run's digest (null until the run has ended, or when it measured nothing).</summary>
public sealed record AgentRunRow(AgentShardRow Shard, ShardStatistics? Figures)
{
    public static IReadOnlyList<AgentRunRow> Of(Run run, RunDigest? digest) =>
        AgentShardRow.Parse(run.AgentsJson).Select(r => new AgentRunRow(r, digest?.Shards?.FirstOrDefault(f => f.Shard == r.Shard))).ToList();
}
