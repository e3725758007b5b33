using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>
/// A benchmark over time: p50/p95/p99 and throughput per completed run on a time axis, each level between changes,
/// the changes found (confirmed or pending) with their size and interval, outlying runs and parameter changes.
/// Read from the runs' stored summaries and judgements, never their samples.
/// </summary>
public sealed class TrendModel(BenchmarkStore store, RunHistory history) : PageModel
{
    /// <summary>Runs on the chart and in the changes; the table lists the newest <see cref="TableRuns"/>.</summary>
    public const int Take = Api.BenchmarksApi.MaxTrendRuns;
    public const int TableRuns = 100;

    public Benchmark Benchmark { get; private set; } = null!;
    public Thresholds Thresholds { get; private set; } = Thresholds.None;
    public IReadOnlyList<HistoryPoint> Points { get; private set; } = [];
    public HistoryView View { get; private set; } = null!;
    public string ChartJson { get; private set; } = "{}";

    public async Task<IActionResult> OnGetAsync(int id, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        Benchmark = benchmark;
        Thresholds = RunHistory.ThresholdsOf(benchmark);
        (Points, View) = await history.ViewAsync(benchmark, Take, ct);
        ChartJson = TrendChart.Build(Points, View);
        return Page();
    }

    /// <summary>When a run ended (queued, for a run that has no end recorded).</summary>
    public long TimeOf(long runId) => Points.FirstOrDefault(p => p.Run.Id == runId)?.Run is { } run ? run.EndedUtcMs ?? run.QueuedUtcMs : 0;

    /// <summary>A run's place in the history in a few words for its table row (the whole sentence is its title).</summary>
    public string Mark(HistoryPoint p)
    {
        if (p.History is { Flagged: true }) return "⚠ regression confirmed";
        if (p.History is { Confirmed.Count: > 0 }) return "improvement confirmed";
        if (View.Outliers.FirstOrDefault(o => o.RunId == p.Run.Id) is { } outlier) return $"outlier ({outlier.Metric})";
        return p.History switch
        {
            null => "",
            { Pending: { } pending } => $"possible change since #{pending.SinceRunId}",
            { ParameterChange: true } => "parameters changed",
            _ => "",
        };
    }
}
