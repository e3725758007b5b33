using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>A benchmark over time: p50/p95/p99 and throughput per completed run, regression flags and pass/fail.</summary>
public sealed class TrendModel(BenchmarkStore store, RunHistory history) : PageModel
{
    public const int Take = 100;
    public Benchmark Benchmark { get; private set; } = null!;
    public Thresholds Thresholds { get; private set; } = Thresholds.None;
    public IReadOnlyList<HistoryPoint> Points { get; private set; } = [];
    public string ChartJson { get; private set; } = "{}";

    public async Task<IActionResult> OnGetAsync(int id, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        Benchmark = benchmark;
        Thresholds = RunHistory.ThresholdsOf(benchmark);
        Points = await history.TrendAsync(benchmark, Take, ct);
        ChartJson = Json.Serialize(Points.Select(p => new
        {
            run = p.Run.Id,
            p50 = p.Summary.MedianNs / 1e6, p95 = p.Summary.P95Ns / 1e6, p99 = p.Summary.P99Ns / 1e6,
            rps = p.Summary.Throughput,
            flagged = p.Regression?.IsFlagged == true,
            failed = p.Thresholds?.Passed == false,
        }));
        return Page();
    }
}
