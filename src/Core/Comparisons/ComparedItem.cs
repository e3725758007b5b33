using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// One side of a comparison: a whole run (key "12"), one series of a run (key "12/read-miss", a cache
/// phase, a variant), or a group of separate runs of the same thing ("12+14+16", "12/A+14/A"). Its figures come
/// from the run's digest (a group's first run's, with the latencies of all); <see cref="SortedLatencies"/> are
/// its answered latencies, sorted, and <see cref="Shape"/> its chart data. What the verdict needs beyond those
/// depends on how it was measured: see the properties below.
/// </summary>
public sealed record ComparedItem(string Key, string Label, Run Run, string? Series, RunStatistics Statistics, IReadOnlyList<long> SortedLatencies, LatencyShape Shape)
{
    /// <summary>The run's other series this one took turns with (interleaved variants; a cache phase's variants).</summary>
    public IReadOnlyList<string>? TookTurnsWith { get; init; }

    /// <summary>A series that took turns with some of the run's others.</summary>
    public bool Interleaved => TookTurnsWith is { Count: > 0 };

    /// <summary>Interleaved series: its answered latencies in the order they were sent, for the block bootstrap.</summary>
    public IReadOnlyList<long>? Ordered { get; init; }

    /// <summary>A group of separate runs: each run's answered latencies, sorted (two or more runs).</summary>
    public IReadOnlyList<IReadOnlyList<long>>? RunLatencies { get; init; }

    /// <summary>The runs of a group, in the order given; null for a single run.</summary>
    public IReadOnlyList<Run>? GroupRuns { get; init; }

    /// <summary>The item's runs: a group's, or its one run.</summary>
    public IReadOnlyList<Run> Runs => GroupRuns ?? [Run];

    /// <summary>For each verdict percentile (permille), the figure of each earlier run with the same kind and parameters.</summary>
    public IReadOnlyDictionary<int, IReadOnlyList<double>>? History { get; init; }

    /// <summary>"12+14" is a group of runs 12 and 14; a space (what '+' becomes in a query string) separates them too.</summary>
    public static string[] GroupParts(string key) => key.Split(['+', ' '], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>What follows a run id in a compare key for each of its planned series ("/write"), or "" for the whole run.</summary>
    public static IReadOnlyList<string> SeriesSuffixes(IReadOnlyList<string> planned) => planned.Count == 0 ? [""] : planned.Select(s => "/" + s).ToList();

    public static bool TryParseKey(string key, out long runId, out string? series)
    {
        var slash = key.IndexOf('/');
        series = slash < 0 ? null : key[(slash + 1)..];
        return long.TryParse(slash < 0 ? key : key[..slash], out runId) && runId > 0 && series is not "";
    }
}
