using BenchDashboard.Core;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>
/// Chart data for a run page, small enough to embed: the per-sample series is downsampled on the server
/// (bucket min and max, so spikes survive) and errors are drawn as their own marked series.
/// </summary>
public static class RunCharts
{
    public const int MaxSeriesPoints = 4000;
    public const int MaxErrorPoints = 2000;

    /// <param name="load">An open-model run's generator figures: its per-second target and achieved rates are charted too.</param>
    public static string Build(IReadOnlyList<Sample> samples, RunAnalysis? analysis = null, OpenLoadReport? load = null)
    {
        var answered = samples.Where(s => !s.Error.IsTransportError()).ToList();
        var errors = samples.Where(s => s.Error != ErrorKind.None).ToList();
        var latencies = answered.Where(s => !s.IsWarmup).Select(s => s.LatencyNs).ToList();

        // A run with series (cache phases) gets one dataset per series instead of measured/warm-up.
        var hasSeries = samples.Any(s => s.Series is not null);
        var data = new
        {
            measured = hasSeries ? [] : Points(answered.Where(s => !s.IsWarmup)),
            warmup = hasSeries ? [] : Points(answered.Where(s => s.IsWarmup)),
            series = answered.Where(s => s.Series is not null && !s.IsWarmup).GroupBy(s => s.Series!)
                .Select(g => new { name = g.Key, points = Points(g) }),
            errors = Every(errors, MaxErrorPoints).Select(s => new { x = s.Index, y = s.LatencyNs / 1e6, kind = s.Error.ToString(), status = s.StatusCode }),
            histogram = Histogram.Build(latencies).Select(b => new { fromMs = b.FromNs / 1e6, toMs = b.ToNs / 1e6, count = b.Count }),
            totalSamples = samples.Count,
            steadyFromIndex = analysis?.SteadyFromIndex,
            episodes = analysis?.Degradation?.Episodes.Select(e => new { from = e.StartIndex, to = e.EndIndex }) ?? [],
            load = load?.PerSecond.Select(p => new { second = p.Second, due = p.Due, started = p.Started }),
        };
        return Json.Serialize(data);
    }

    static IEnumerable<object> Points(IEnumerable<Sample> samples) =>
        SeriesDownsampler.MinMax(samples.Select(s => new SeriesPoint(s.Index, s.LatencyNs)).ToList(), MaxSeriesPoints)
            .Select(p => new { x = p.Index, y = p.LatencyNs / 1e6 });

    /// <summary>Evenly spaced picks when there are more than <paramref name="max"/> items.</summary>
    static IEnumerable<T> Every<T>(IReadOnlyList<T> items, int max) =>
        items.Count <= max ? items : Enumerable.Range(0, max).Select(i => items[(int)((long)i * items.Count / max)]);
}
