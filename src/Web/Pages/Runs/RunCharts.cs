using BenchDashboard.Core;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>
/// Chart data for a run page, from its digest (already downsampled when the run ended): the per-sample series
/// with errors as their own marked series, the latency histogram, the warm-up and episodes of the analysed
/// series, and an open-model run's target and achieved rates.
/// </summary>
public static class RunCharts
{
    /// <param name="load">An open-model run's generator figures (its corrected digest's: a service-time digest has none).</param>
    public static string Build(RunDigest digest, RunAnalysis? analysis = null, OpenLoadReport? load = null)
    {
        var chart = digest.Chart;
        var histogram = digest.Histogram;
        var data = new
        {
            measured = Points(chart.Measured),
            warmup = Points(chart.Warmup),
            series = chart.Series.Select(s => new { name = s.Name, points = Points(s.Points) }),
            errors = chart.Errors.Select(e => new { x = e.Index, y = e.LatencyNs / 1e6, kind = e.Kind.ToString(), status = e.Status }),
            histogram = Enumerable.Range(0, Math.Max(0, histogram.EdgesNs.Count - 1)).Select(i => new
            {
                fromMs = histogram.EdgesNs[i] / 1e6, toMs = histogram.EdgesNs[i + 1] / 1e6, count = histogram.Counts.Sum(c => c[i]),
            }),
            totalSamples = chart.TotalSamples,
            steadyFromIndex = analysis?.SteadyFromIndex,
            episodes = analysis?.Degradation?.Episodes.Select(e => new { from = e.StartIndex, to = e.EndIndex }) ?? [],
            load = (load ?? digest.Load)?.PerSecond.Select(p => new { second = p.Second, due = p.Due, started = p.Started }),
        };
        return Json.Serialize(data);
    }

    static IEnumerable<object> Points(IEnumerable<SeriesPoint> points) => points.Select(p => new { x = p.Index, y = p.LatencyNs / 1e6 });
}
