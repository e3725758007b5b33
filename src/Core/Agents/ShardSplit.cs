namespace BenchDashboard.Core.Agents;

/// <summary>One shard of a run's load: its own parameters, and how many connections it opens (numbered after the earlier shards').</summary>
public sealed record ShardPart(object Parameters, int Connections);

/// <summary>
/// A run's load divided between runner agents (<see cref="Benchmarks.IBenchmarkKind.Split"/>), or why these
/// parameters cannot be divided (<see cref="Refusal"/>, shown on the <c>agents</c> field).
/// </summary>
public sealed record ShardSplit(IReadOnlyList<ShardPart> Parts, string? Refusal)
{
    public static ShardSplit Refused(string why) => new([], why);

    /// <summary>Shard <paramref name="shard"/>'s part of a count: the first <c>total mod shards</c> shards take one more, so the parts add up.</summary>
    public static int Part(int total, int shards, int shard) => total / shards + (shard < total % shards ? 1 : 0);
}
