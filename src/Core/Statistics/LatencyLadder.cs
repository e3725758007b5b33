namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Exact distribution of one set of durations (nanoseconds): the ab/go-wrk fields plus the percentile ladder.
/// Computed once from all values; immutable. Standard deviation is the sample standard deviation (n − 1),
/// zero for a single value.
/// </summary>
public sealed record LatencyLadder(
    int Count, long MinNs, double MeanNs, double StdDevNs,
    long P50Ns, long P66Ns, long P75Ns, long P80Ns, long P90Ns, long P95Ns, long P98Ns, long P99Ns, long P999Ns,
    long MaxNs)
{
    /// <summary>The ladder's rungs in order, as (label, permille); shared by pages and the API.</summary>
    public static readonly (string Label, int Permille)[] Rungs =
        [("50%", 500), ("66%", 660), ("75%", 750), ("80%", 800), ("90%", 900), ("95%", 950), ("98%", 980), ("99%", 990), ("99.9%", 999)];

    /// <summary>Null for no values: an empty set has no minimum or median to report.</summary>
    public static LatencyLadder? From(IEnumerable<long> durationsNs) => FromUnsorted(durationsNs.ToArray());

    /// <summary>As <see cref="From"/>, sorting <paramref name="durationsNs"/> itself (a caller's own copy: no second one).</summary>
    public static LatencyLadder? FromUnsorted(Span<long> durationsNs)
    {
        var sorted = durationsNs;
        if (sorted.Length == 0) return null;
        sorted.Sort();

        double sum = 0;
        foreach (var v in sorted) sum += v;
        var mean = sum / sorted.Length;
        double squares = 0;
        foreach (var v in sorted) squares += (v - mean) * (v - mean);
        var stdDev = sorted.Length > 1 ? Math.Sqrt(squares / (sorted.Length - 1)) : 0;

        return new LatencyLadder(sorted.Length, sorted[0], mean, stdDev,
            Percentile.NearestRank(sorted, 500), Percentile.NearestRank(sorted, 660), Percentile.NearestRank(sorted, 750),
            Percentile.NearestRank(sorted, 800), Percentile.NearestRank(sorted, 900), Percentile.NearestRank(sorted, 950),
            Percentile.NearestRank(sorted, 980), Percentile.NearestRank(sorted, 990), Percentile.NearestRank(sorted, 999), sorted[^1]);
    }

    /// <summary>
    /// Separate runs as one side: each percentile the mean of the runs' (each run counts once, as the hierarchical
    /// bootstrap's estimate weighs them, so a group's figures and its verdict agree); count, minimum, mean, spread and
    /// maximum over all their values. Null when no run has a value.
    /// </summary>
    public static LatencyLadder? OfRuns(IReadOnlyList<IReadOnlyList<long>> sortedRuns)
    {
        if (From(sortedRuns.SelectMany(r => r)) is not { } pooled) return null;
        long P(int permille) => (long)Math.Round(HierarchicalBootstrap.Estimate(sortedRuns, permille)!.Value);
        return pooled with { P50Ns = P(500), P66Ns = P(660), P75Ns = P(750), P80Ns = P(800), P90Ns = P(900), P95Ns = P(950), P98Ns = P(980), P99Ns = P(990), P999Ns = P(999) };
    }

    public long ValueAt(int permille) => permille switch
    {
        500 => P50Ns, 660 => P66Ns, 750 => P75Ns, 800 => P80Ns, 900 => P90Ns,
        950 => P95Ns, 980 => P98Ns, 990 => P99Ns, 999 => P999Ns, 1000 => MaxNs,
        _ => throw new ArgumentOutOfRangeException(nameof(permille), permille, "Not a rung of the ladder."),
    };
}
