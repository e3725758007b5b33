namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Latency histograms over logarithmic bins, as HdrHistogram draws them: bin edges grow by a constant
/// factor, so the body of a distribution and its slowest outliers are both readable on one chart (equal-width
/// bins put ~95 % of a run with one outlier into the first bar). Several sets share one set of edges, so
/// their histograms can be overlaid.
/// </summary>
/// <param name="EdgesNs">Bin i is [EdgesNs[i], EdgesNs[i + 1]); the last bin also holds its upper edge.</param>
/// <param name="Counts">Per set, its count in each bin.</param>
public sealed record LogHistogram(IReadOnlyList<long> EdgesNs, IReadOnlyList<int[]> Counts)
{
    /// <summary>About this many bins across the body of the distribution (p1 to p99).</summary>
    public const int TargetBodyBins = 30;

    /// <summary>At most this many bins in all, however far the outliers reach.</summary>
    public const int MaxBins = 200;

    /// <summary>Finest and coarsest steps, in bins per factor of ten.</summary>
    const int MaxPerDecade = 100, MinPerDecade = 10;

    /// <param name="sets">Each set's values, sorted ascending: the bins are counted by the ranks of their edges
    /// (a binary search each), so the cost does not grow with the sets' sizes.</param>
    public static LogHistogram Build(IReadOnlyList<IReadOnlyList<long>> sets)
    {
        var nonEmpty = sets.Where(s => s.Count > 0).ToList();
        if (nonEmpty.Count == 0) return new LogHistogram([], sets.Select(_ => Array.Empty<int>()).ToList());
        var min = Math.Max(1, nonEmpty.Min(s => s[0]));
        var max = Math.Max(min, nonEmpty.Max(s => s[s.Count - 1]));

        // The step is chosen for the body (p1 to p99), so a narrow distribution gets bars enough to show its
        // shape, then the bins go on at that step out to the slowest outlier, within MaxBins.
        var bodyFrom = Math.Max(1, nonEmpty.Min(s => Percentile.NearestRank(s, 10)));
        var bodyTo = Math.Max(bodyFrom, nonEmpty.Max(s => Percentile.NearestRank(s, 990)));
        var bodyDecades = Math.Max(Math.Log10((double)bodyTo / bodyFrom), 1e-9);
        var perDecade = Math.Clamp(TargetBodyBins / bodyDecades, MinPerDecade, MaxPerDecade);
        var decades = Math.Log10((double)max / min);
        perDecade = Math.Max(1, Math.Min(perDecade, (MaxBins - 1) / Math.Max(decades, 1e-9)));

        var first = Math.Floor(Math.Log10(min) * perDecade);
        var edges = new List<long>();
        for (var k = first; ; k++)
        {
            var edge = (long)Math.Round(Math.Pow(10, k / perDecade));
            if (edges.Count > 0 && edge <= edges[^1]) continue; // below ~100 ns, steps round to the same value
            edges.Add(edge);
            if (edge > max) break;
        }
        if (edges[0] > min) edges.Insert(0, min);

        var counts = sets.Select(set =>
        {
            // Bin i holds the values from edge i up to edge i + 1 (values below 1 ns count as 1 ns); the last bin
            // also holds its upper edge.
            var below = edges.Select((edge, i) => i == 0 ? 0 : i == edges.Count - 1 ? set.Count : SortedLatencies.CountBelow(set, edge)).ToArray();
            return Enumerable.Range(0, edges.Count - 1).Select(i => below[i + 1] - below[i]).ToArray();
        }).ToList();
        return new LogHistogram(edges, counts);
    }

    public static LogHistogram Build(long[] sortedValues) => Build([sortedValues]);

}

/// <summary>A point of a latency distribution: the share of requests (0..1] that took at most <see cref="LatencyNs"/>.</summary>
public readonly record struct DistributionPoint(double Fraction, long LatencyNs);

/// <summary>
/// Points for the two distribution charts, from sorted values by nearest rank (so every point is a measured
/// value and the curve never goes down).
/// </summary>
public static class Distribution
{
    /// <summary>
    /// HdrHistogram's percentile plot: points evenly spaced in −log₁₀(1 − p), from the median's neighbourhood up
    /// to as far as the data reaches (p99.99 needs 10,000 values), then the maximum. On that axis p90, p99,
    /// p99.9 sit one step apart, so the tail, which a linear axis squeezes against its right edge, is visible.
    /// </summary>
    public static IReadOnlyList<DistributionPoint> Percentiles(ReadOnlySpan<long> sorted, int points = 120)
    {
        if (sorted.IsEmpty) return [];
        var n = sorted.Length;
        var reach = Math.Log10(n); // p = 1 − 1/n is the last rank short of the maximum
        var result = new List<DistributionPoint>(points + 1);
        for (var i = 0; i < points; i++)
        {
            var p = 1 - Math.Pow(10, -reach * i / points);
            result.Add(new DistributionPoint(p, At(sorted, p)));
        }
        result.Add(new DistributionPoint(1, sorted[^1]));
        return result;
    }

    /// <summary>The CDF at evenly spaced ranks (at most <paramref name="points"/>), the last one the maximum.</summary>
    public static IReadOnlyList<DistributionPoint> Cdf(ReadOnlySpan<long> sorted, int points = 400)
    {
        if (sorted.IsEmpty) return [];
        var n = sorted.Length;
        var count = Math.Min(points, n);
        var result = new List<DistributionPoint>(count);
        var last = 0;
        for (var i = 1; i <= count; i++)
        {
            var rank = (int)Math.Ceiling((double)i * n / count);
            if (rank == last) continue;
            last = rank;
            result.Add(new DistributionPoint((double)rank / n, sorted[rank - 1]));
        }
        return result;
    }

    /// <summary>Nearest rank at a fraction p in [0, 1] (for charts; the tables use <see cref="Percentile.NearestRank"/>).</summary>
    static long At(ReadOnlySpan<long> sorted, double p) =>
        sorted[Math.Clamp((int)Math.Ceiling(p * sorted.Length), 1, sorted.Length) - 1];
}
