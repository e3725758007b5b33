using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Web.Pages.Kinds;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>One run: summary, percentile ladder, per-series tables (cache phases), connection times, response classes, cold vs warm, charts.</summary>
public sealed class DetailsModel(RunQueries queries, RunQueue queue, RunHistory history, KindForms forms, BenchmarkKinds kinds) : PageModel
{
    /// <summary>The run's kind and its run-page partial; null for a kind this build does not have.</summary>
    public KindPage? KindPage { get; private set; }

    public RunReport Report { get; private set; } = null!;
    public string ChartJson { get; private set; } = "{}";

    /// <summary>For runs with several series: each as a percentage of <see cref="Baseline"/> (seed 000's table).</summary>
    public IReadOnlyList<ComparisonRow> Comparison { get; private set; } = [];
    public string? Baseline { get; private set; }

    /// <summary>Time windows, warm-up and episodes of the whole run, or of <see cref="AnalysedSeries"/>.</summary>
    public RunAnalysis? Analysis { get; private set; }
    public string? AnalysedSeries { get; private set; }
    public string? AnalysisError { get; private set; }

    /// <summary>For a completed run of a saved benchmark: its limits' verdict and the regression check.</summary>
    public HistoryPoint? History { get; private set; }

    /// <summary>An open-model run's generator: target vs. achieved per second, late starts; null for a closed run.</summary>
    public OpenLoadReport? OpenLoad { get; private set; }

    /// <summary>An open-model run's schedule in words.</summary>
    public string? Schedule { get; private set; }

    /// <summary>What the analysis and the per-sample chart show of an open-model run: corrected latency or service time (<c>?latency=service</c>).</summary>
    public LatencyBasis Basis { get; private set; }

    public async Task<IActionResult> OnGetAsync(long id, string? baseline, int? window, string? series, string? latency, CancellationToken ct)
    {
        if (!Api.LatencyBasisQuery.TryParse(latency, out var basis)) AnalysisError = Api.LatencyBasisQuery.Message;
        if (await queries.ReportAsync(id, ct) is not { } report) return NotFound();
        Report = report;
        KindPage = forms.Find(report.Run.Kind);
        OpenLoad = report.Digest.Load;
        Schedule = kinds.Schedule(report.Run);
        // The summary shows corrected latency and service time side by side; the analysis and the per-sample
        // chart show the one the reader picked.
        var shown = basis == LatencyBasis.Service && OpenLoad is not null ? (await queries.ReportAsync(id, ct, basis))!.Digest : report.Digest;
        Basis = shown.Basis;
        // A run of several series is analysed one series at a time: phases differ by design.
        var analysis = shown.AnalysisOf(series);
        AnalysedSeries = analysis.Series;
        try
        {
            Analysis = analysis.At(window);
        }
        catch (ArgumentException ex)
        {
            AnalysisError = ex.Message;
            Analysis = analysis.At(null);
        }
        if (report.Series.Count > 0)
        {
            // The reader's pick, else the kind's own baseline (Table: both toggles on, as in seed 003), else the first.
            var preferred = kinds.BaselineSeries(report.Run);
            Baseline = report.Series.Any(s => s.Name == baseline) ? baseline : report.Series.Any(s => s.Name == preferred) ? preferred : report.Series[0].Name;
            Comparison = BaselineComparison.Compare(report.Series.Select(s => (s.Name, s.Statistics)).ToList(), Baseline!);
        }
        ChartJson = RunCharts.Build(shown, Analysis, OpenLoad);
        History = await history.PointAsync(report.Run, ct, report.Statistics);
        return Page();
    }

    public async Task<IActionResult> OnPostCancelAsync(long id, CancellationToken ct)
    {
        if (await queue.CancelAsync(id, ct) == CancelOutcome.NotFound) return NotFound();
        return Redirect($"/runs/{id}");
    }
}
