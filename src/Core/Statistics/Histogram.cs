namespace BenchDashboard.Core.Statistics;

/// <summary>A histogram bin: [FromNs, ToNs) except the last, which includes ToNs.</summary>
public readonly record struct HistogramBin(long FromNs, long ToNs, int Count);

/// <summary>
/// Equal-width bins from the minimum to the p99.9 of the values, plus one overflow bin up to the maximum,
/// so a single extreme outlier does not squeeze the whole body of the distribution into one bar.
/// </summary>
public static class Histogram
{
    public static IReadOnlyList<HistogramBin> Build(IReadOnlyCollection<long> values, int bins = 40)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(bins, 1);
        if (values.Count == 0) return [];
        var sorted = values.ToArray();
        Array.Sort(sorted);
        long min = sorted[0], max = sorted[^1], top = Percentile.NearestRank(sorted, 999);
        if (top == min) return [new HistogramBin(min, max, sorted.Length)];

        var width = Math.Max(1, (top - min + bins - 1) / bins);
        var counts = new int[bins];
        var overflow = 0;
        foreach (var v in sorted)
        {
            if (v > top) { overflow++; continue; }
            counts[Math.Min(bins - 1, (int)((v - min) / width))]++;
        }
        var result = new List<HistogramBin>(bins + 1);
        for (var i = 0; i < bins; i++)
            result.Add(new HistogramBin(min + i * width, i == bins - 1 ? top : min + (i + 1) * width, counts[i]));
        if (overflow > 0) result.Add(new HistogramBin(top, max, overflow));
        return result;
    }
}

/// <summary>Bins shared by several sets, so their histograms can be overlaid: one set of edges, counts per set.</summary>
public sealed record SharedHistogram(IReadOnlyList<long> EdgesNs, IReadOnlyList<int[]> Counts)
{
    /// <summary>
    /// Equal-width bins from the smallest value to the largest p99.9 of the sets; values above go into the
    /// last bin, which therefore reads "and above".
    /// </summary>
    public static SharedHistogram Build(IReadOnlyList<long[]> sets, int bins = 40)
    {
        var nonEmpty = sets.Where(s => s.Length > 0).ToList();
        if (nonEmpty.Count == 0) return new SharedHistogram([], sets.Select(_ => Array.Empty<int>()).ToList());
        var min = nonEmpty.Min(s => s.Min());
        var top = nonEmpty.Max(s => { var sorted = (long[])s.Clone(); Array.Sort(sorted); return Percentile.NearestRank(sorted, 999); });
        var width = Math.Max(1, (top - min + bins - 1) / bins);
        var edges = Enumerable.Range(0, bins + 1).Select(i => min + i * width).ToList();
        var counts = sets.Select(set =>
        {
            var c = new int[bins];
            foreach (var v in set) c[Math.Clamp((int)((v - min) / width), 0, bins - 1)]++;
            return c;
        }).ToList();
        return new SharedHistogram(edges, counts);
    }
}
