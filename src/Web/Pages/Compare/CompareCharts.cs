using BenchDashboard.Core;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Compare;

/// <summary>
/// Overlaid chart data for the compare page: each item's answered latencies by position (aligned by their
/// order within the item), its CDF, and histograms over shared logarithmic bins. The first two come downsampled
/// from the runs' digests; the histogram from the items' sorted latencies.
/// </summary>
public static class CompareCharts
{
    public static string Build(RunComparison comparison)
    {
        var histogram = LogHistogram.Build(comparison.Items.Select(i => i.SortedLatencies).ToList());
        var data = new
        {
            items = comparison.Items.Select((item, k) => new
            {
                label = item.Label,
                series = item.Shape.ByPosition.Select(p => new { x = p.Index, y = p.LatencyNs / 1e6 }),
                cdf = item.Shape.Cdf.Select(p => new { x = p.LatencyNs / 1e6, y = p.Fraction }),
                histogram = histogram.Counts[k],
            }),
            histogramEdgesMs = histogram.EdgesNs.Select(e => e / 1e6),
        };
        return Json.Serialize(data);
    }
}
