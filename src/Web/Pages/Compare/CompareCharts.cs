using BenchDashboard.Core;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Compare;

/// <summary>
/// Overlaid chart data for the compare page: each item's answered latencies by position (aligned by sample
/// index within the item), its CDF, and histograms over shared bins. Downsampled on the server.
/// </summary>
public static class CompareCharts
{
    const int MaxSeriesPoints = 2000;
    const int CdfPoints = 400;

    public static string Build(RunComparison comparison)
    {
        var latencies = comparison.Items.Select(i => i.RankedLatencies()).ToList();
        var sorted = comparison.Items.Select(i => i.SortedLatencies()).ToList();
        var histogram = SharedHistogram.Build(sorted);
        var data = new
        {
            items = comparison.Items.Select((item, k) => new
            {
                label = item.Label,
                series = SeriesDownsampler.MinMax(latencies[k].Select((v, i) => new SeriesPoint(i, v)).ToList(), MaxSeriesPoints)
                    .Select(p => new { x = p.Index, y = p.LatencyNs / 1e6 }),
                cdf = Cdf(sorted[k]),
                histogram = histogram.Counts[k],
            }),
            histogramEdgesMs = histogram.EdgesNs.Select(e => e / 1e6),
        };
        return Json.Serialize(data);
    }

    /// <summary>Points (latency, share of requests at or below it) at evenly spaced ranks of sorted values, the last one the maximum.</summary>
    static IEnumerable<object> Cdf(long[] sorted)
    {
        if (sorted.Length == 0) return [];
        var n = sorted.Length;
        return Enumerable.Range(1, Math.Min(CdfPoints, n))
            .Select(i => (int)Math.Ceiling((double)i * n / Math.Min(CdfPoints, n)))
            .Distinct()
            .Select(rank => new { x = sorted[rank - 1] / 1e6, y = (double)rank / n });
    }
}
