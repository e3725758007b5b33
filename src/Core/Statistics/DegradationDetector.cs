namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A stretch where latency stayed well above the steady level. Positions are into the analysed series;
/// <see cref="StartIndex"/>/<see cref="EndIndex"/> are the sample indexes (inclusive) for charts and tables.
/// Ratios are to the steady median: mean and peak of the episode's latencies.
/// </summary>
public sealed record Episode(int StartIndex, int EndIndex, int Length, long StartOffsetNs, long EndOffsetNs, double MeanRatio, double PeakRatio);

/// <summary>The episodes of a series, and their period when they recur regularly.</summary>
public sealed record DegradationReport(
    long SteadyMedianNs, long ThresholdNs, IReadOnlyList<Episode> Episodes, double? PeriodSamples, double? PeriodSeconds);

/// <summary>One point of a series to analyse: the sample's index, start offset and latency.</summary>
public readonly record struct SeriesSample(int Index, long OffsetNs, long LatencyNs);

/// <summary>
/// Seed 003 saw latency rise for a while every 2,000–5,000 samples. Method:
/// <list type="number">
/// <item>Steady level: the median m and the median absolute deviation (MAD) of the series after warm-up.</item>
/// <item>Threshold T = max(2·m, m + 6 · 1.4826 · MAD): "well above" is both twice the median and far outside
/// the ordinary spread.</item>
/// <item>A centred rolling median of 9 samples above T marks degraded positions, so single outliers (a tail,
/// not an episode) never count: at least 5 of 9 neighbours must be high (at the two ends of the series, a
/// majority of the neighbours there are).</item>
/// <item>Degraded positions closer than 20 samples are one episode.</item>
/// <item>Period: with 3 or more episodes, when the gaps between starts vary little (coefficient of variation
/// ≤ 0.25), the median gap, in samples and in seconds.</item>
/// </list>
/// </summary>
public static class DegradationDetector
{
    public const int Window = 9;
    public const int MergeGap = 20;
    public const double MaxPeriodVariation = 0.25;

    public static DegradationReport? Detect(IReadOnlyList<SeriesSample> series)
    {
        if (series.Count < Window * 4) return null;
        var sorted = series.Select(s => s.LatencyNs).ToArray();
        Array.Sort(sorted);
        return Detect(series, sorted);
    }

    /// <param name="sortedLatencies">The series' latencies, sorted (a caller's buffer: it is overwritten).</param>
    internal static DegradationReport? Detect(IReadOnlyList<SeriesSample> series, Span<long> sortedLatencies)
    {
        if (series.Count < Window * 4) return null;
        var median = Percentile.NearestRank(sortedLatencies, 500);
        if (median <= 0) return null; // no level to compare with
        // The deviations in the same buffer: the latencies are not needed again.
        var deviations = sortedLatencies;
        foreach (ref var v in deviations) v = Math.Abs(v - median);
        deviations.Sort();
        var mad = Percentile.NearestRank(deviations, 500);
        var threshold = (long)Math.Max(2.0 * median, median + 6 * 1.4826 * mad);

        var high = RollingMedianAbove(series, threshold);
        var episodes = new List<Episode>();
        var start = -1;
        var lastHigh = -1;
        for (var i = 0; i <= series.Count; i++)
        {
            var isHigh = i < series.Count && high[i];
            if (isHigh)
            {
                if (start < 0) start = i;
                else if (i - lastHigh > MergeGap) { episodes.Add(Make(series, start, lastHigh, median)); start = i; }
                lastHigh = i;
            }
            else if (i == series.Count && start >= 0)
            {
                episodes.Add(Make(series, start, lastHigh, median));
            }
        }
        var (periodSamples, periodSeconds) = Period(episodes);
        return new DegradationReport(median, threshold, episodes, periodSamples, periodSeconds);
    }

    static bool[] RollingMedianAbove(IReadOnlyList<SeriesSample> series, long threshold)
    {
        var half = Window / 2;
        var high = new bool[series.Count];
        for (var i = 0; i < series.Count; i++)
        {
            int from = Math.Max(0, i - half), to = Math.Min(series.Count - 1, i + half), n = to - from + 1;
            // The median of up to 9 values is above T when more than half of them are.
            var above = 0;
            for (var j = from; j <= to; j++) if (series[j].LatencyNs > threshold) above++;
            high[i] = above * 2 > n;
        }
        return high;
    }

    static Episode Make(IReadOnlyList<SeriesSample> series, int from, int to, long median)
    {
        double sum = 0;
        long peak = 0;
        for (var i = from; i <= to; i++)
        {
            sum += series[i].LatencyNs;
            peak = Math.Max(peak, series[i].LatencyNs);
        }
        var length = to - from + 1;
        return new Episode(series[from].Index, series[to].Index, length, series[from].OffsetNs, series[to].OffsetNs + series[to].LatencyNs,
            sum / length / median, (double)peak / median);
    }

    static (double?, double?) Period(List<Episode> episodes)
    {
        if (episodes.Count < 3) return (null, null);
        var gaps = episodes.Zip(episodes.Skip(1), (a, b) => (double)(b.StartIndex - a.StartIndex)).ToArray();
        var mean = gaps.Average();
        var sd = Math.Sqrt(gaps.Sum(g => (g - mean) * (g - mean)) / (gaps.Length - 1 == 0 ? 1 : gaps.Length - 1));
        if (sd / mean > MaxPeriodVariation) return (null, null);
        var seconds = episodes.Zip(episodes.Skip(1), (a, b) => (b.StartOffsetNs - a.StartOffsetNs) / 1e9).Order().ToArray();
        return (gaps.Order().ElementAt(gaps.Length / 2), seconds[seconds.Length / 2]);
    }
}
