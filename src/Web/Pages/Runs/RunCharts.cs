using BenchDashboard.Core;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>
/// Chart data for a run page, from its digest (already downsampled when the run ended); durations in ms, the
/// unit the charts' formatter (wwwroot/js/units.js) starts from. The per-sample series with errors marked, the
/// analysed series' time windows (throughput, errors and percentiles over time), each series' percentile plot
/// and CDF, the log-binned histogram, the warm-up and episodes, and an open-model run's target and achieved rates.
/// </summary>
public static class RunCharts
{
    /// <param name="load">An open-model run's generator figures (its corrected digest's: a service-time digest has none).</param>
    /// <param name="picked">The variant the reader picked: the charts show it alone; null shows every one.</param>
    public static string Build(RunDigest digest, RunAnalysis? analysis = null, OpenLoadReport? load = null, string? picked = null)
    {
        var chart = digest.Chart;
        var histogram = digest.Histogram;
        var shapes = digest.Series.Count == 0
            ? [(Name: "all", Shape: digest.Shapes.GetValueOrDefault(RunDigest.WholeRun))]
            : digest.Series.Select(s => (s.Name, Shape: digest.Shapes.GetValueOrDefault(s.Name))).ToList();
        var data = new
        {
            measured = Points(chart.Measured),
            warmup = Points(chart.Warmup),
            series = chart.Series.Select(s => new { name = s.Name, points = Points(s.Points) }),
            errors = chart.Errors.Select(e => new { x = e.Index, y = e.LatencyNs / 1e6, kind = e.Kind.ToString(), status = e.Status, series = e.Series }),
            picked,
            seriesNames = digest.Series.Select(s => s.Name),
            totalSamples = chart.TotalSamples,
            lastIndex = chart.LastIndex,
            steadyFromIndex = analysis?.SteadyFromIndex,
            episodes = analysis?.Degradation?.Episodes.Select(e => new { from = e.StartIndex, to = e.EndIndex }) ?? [],
            load = (load ?? digest.Load)?.PerSecond.Select(p => new { second = p.Second, due = p.Due, started = p.Started }),
            windows = analysis is null ? null : Windows(digest, analysis.WindowSeconds),
            // The first request of all (the cold one, cache empty), drawn on its own so a scale or a hidden warm-up never hides it.
            cold = digest.Statistics.Cold is { } cold && !cold.First.Error.IsTransportError()
                ? new { x = cold.First.Index, y = cold.First.LatencyNs / 1e6, warmup = cold.First.IsWarmup }
                : null,
            shapes = shapes.Where(s => s.Shape is { Count: > 0 }).Select(s => new
            {
                name = s.Name,
                percentiles = s.Shape!.Percentiles.Select(p => new { p = p.Fraction, ms = p.LatencyNs / 1e6 }),
                cdf = s.Shape.Cdf.Select(p => new { x = p.LatencyNs / 1e6, y = p.Fraction }),
            }),
            histogram = new
            {
                edgesMs = histogram.EdgesNs.Select(e => e / 1e6),
                sets = histogram.Counts.Select((counts, i) => new { name = digest.Series.Count == 0 ? "all" : digest.Series[i].Name, counts }),
            },
        };
        return Json.Serialize(data);
    }

    /// <summary>
    /// Every series' windows (each variant its own line: never a blend), at the reader's length or, for a short run,
    /// sub-second. Each row spans [t, end): the last one ends with the run, so its rate is over its real length.
    /// </summary>
    static object Windows(RunDigest digest, int windowSeconds)
    {
        var picked = digest.Analyses.Select(a => (a.Series, a.OriginNs, Chart: a.ChartWindows(windowSeconds))).ToList();
        // Seconds from the run's first measured start: phases one after another sit where they ran, not all at 0.
        var origin = picked.Min(p => p.OriginNs);
        return new
        {
            // Each series chooses its own length (a short phase sub-second): the longest labels the axis.
            seconds = picked.Max(p => p.Chart.Seconds),
            sets = picked.Select(p => new
            {
                name = p.Series ?? "all",
                seconds = p.Chart.Seconds,
                rows = p.Chart.Windows.Select(w => new
                {
                    t = (p.OriginNs - origin + w.StartNs) / 1e9, end = (p.OriginNs - origin + w.EndNs) / 1e9,
                    perSecond = w.PerSecond, errorsPerSecond = w.ErrorsPerSecond,
                    p50 = w.P50Ns / 1e6, p95 = w.P95Ns / 1e6, p99 = w.P99Ns / 1e6,
                }),
            }),
        };
    }

    /// <summary>A schedule's target rate as [seconds, operations per second] pairs: its corners, at most 400 points.</summary>
    public static string TargetRate(Core.Benchmarks.LoadProfile profile)
    {
        var seconds = profile.DurationNs / 1e9;
        var step = Math.Max(0.25, seconds / 400);
        var points = new List<double[]>();
        for (var t = 0.0; t < seconds; t += step) points.Add([t, profile.RateAt((long)(t * 1e9))]);
        points.Add([seconds, profile.RateAt(Math.Max(0, profile.DurationNs - 1))]);
        return Json.Serialize(points);
    }

    static IEnumerable<object> Points(IEnumerable<SeriesPoint> points) => points.Select(p => new { x = p.Index, y = p.LatencyNs / 1e6 });
}
