using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Agents;

/// <summary>
/// The other way to run on agents: not one load divided between them (<see cref="Runs.Run.Agents"/>), but the
/// same workload on each named agent, one after another in <see cref="Rounds"/> rounds, as series of one run.
/// Agents that share machines (App Service slots on one plan) must not load at once, so they take turns; each
/// round's first agent is drawn as interleaved variants' are. Stored as JSON with a run and a saved benchmark.
/// </summary>
/// <param name="Agents">The agents' names, in order; the first is the baseline the others are shown against.</param>
/// <param name="Rounds">How many times each agent runs the whole workload; its series pools all its turns.</param>
public sealed record OnEach(IReadOnlyList<string> Agents, int Rounds = OnEach.DefaultRounds)
{
    public const int MinAgents = 2;
    public const int MaxAgents = 8;
    public const int DefaultRounds = 3;
    public const int MaxRounds = 20;

    /// <summary>Series of an agent's samples: the agent's name, then the kind's own series after a slash ("cfg0", "cfg0/create").</summary>
    public static string SeriesOf(string agent, string? kindSeries) => string.IsNullOrEmpty(kindSeries) ? agent : $"{agent}/{kindSeries}";

    /// <summary>The agent a series of such a run belongs to, and the kind's series within it (null for a single-series kind).</summary>
    public static (string Agent, string? KindSeries) Split(string series)
    {
        var slash = series.IndexOf('/');
        return slash < 0 ? (series, null) : (series[..slash], series[(slash + 1)..]);
    }

    /// <summary>The run's planned series: per agent in order, the kind's series (or the agent alone).</summary>
    public IReadOnlyList<string> PlannedSeries(IReadOnlyList<string> kindSeries) =>
        kindSeries.Count == 0 ? [.. Agents] : [.. Agents.SelectMany(a => kindSeries.Select(s => SeriesOf(a, s)))];

    public static OnEach? Parse(string? json) => string.IsNullOrEmpty(json) ? null : Json.Deserialize<OnEach>(json);

    public string ToJson() => Json.Serialize(this);
}
