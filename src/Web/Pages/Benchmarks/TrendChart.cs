using BenchDashboard.Core;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>What trend.js draws, in milliseconds and Unix milliseconds: the runs, each level's span and the marks.</summary>
public static class TrendChart
{
    public static string Build(IReadOnlyList<HistoryPoint> points, HistoryView view)
    {
        var time = points.ToDictionary(p => p.Run.Id, p => p.Run.EndedUtcMs ?? p.Run.QueuedUtcMs);
        var outliers = view.Outliers.ToDictionary(o => o.RunId, o => o.Metric);
        return Json.Serialize(new
        {
            runs = points.Select(p => new
            {
                run = p.Run.Id, t = time[p.Run.Id],
                p50 = p.Summary.MedianNs / 1e6, p95 = p.Summary.P95Ns / 1e6, p99 = p.Summary.P99Ns / 1e6, rps = p.Summary.Throughput,
                flagged = p.History?.Flagged == true, failed = p.Thresholds?.Passed == false, outlier = outliers.GetValueOrDefault(p.Run.Id),
            }),
            levels = view.Segments.Select(s => new { from = time[s.FromRunId], to = time[s.ToRunId], p50 = s.MedianNs / 1e6, p95 = s.P95Ns / 1e6, p99 = s.P99Ns / 1e6 }),
            changes = view.Changes.Where(c => time.ContainsKey(c.SinceRunId)).Select(c => new
            {
                t = time[c.SinceRunId], run = c.SinceRunId, regression = c.Evidence.Call == ChangeDirection.Regression,
                label = $"{c.Evidence.Headline.Metric} {Ratio(c.Evidence.Headline.Change)}", text = ChangeWords.Confirmed(c),
            }),
            pending = view.Pending is { } p && time.ContainsKey(p.SinceRunId) ? new { t = time[p.SinceRunId], run = p.SinceRunId, text = ChangeWords.Pending(p) } : null,
            parameters = view.ParameterChanges.Select(id => new { t = time[id], run = id }),
        });
    }

    /// <summary>"×1.21" or "÷1.21": short enough for a mark at the top of the chart.</summary>
    static string Ratio(double change) => change >= 0
        ? "×" + (1 + change).ToString("0.00", System.Globalization.CultureInfo.InvariantCulture)
        : "÷" + (1 / (1 + change)).ToString("0.00", System.Globalization.CultureInfo.InvariantCulture);
}
