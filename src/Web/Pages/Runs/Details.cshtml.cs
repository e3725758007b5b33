using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using BenchDashboard.Web.Pages.Kinds;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>One run: summary, percentile ladder, per-series tables (cache phases), connection times, response classes, cold vs warm, charts.</summary>
public sealed class DetailsModel(
    RunQueries queries, RunQueue queue, RunHistory history, BenchmarkStore benchmarks, KindForms forms, BenchmarkKinds kinds,
    Microsoft.Extensions.Options.IOptions<RunsOptions> runsOptions, BenchDashboard.Core.Stores.RunNotifications notifications) : PageModel
{
    /// <summary>The run's webhook deliveries (attempts, last status, last error), oldest first.</summary>
    public IReadOnlyList<Core.Notifications.WebhookDelivery> Webhooks { get; private set; } = [];

    /// <summary>The run's outcome judged: its colour and, when it is not good, why.</summary>
    public RunOutcome Outcome { get; private set; } = null!;

    /// <summary>How much the run will do, for a live view's progress; null when that cannot be told.</summary>
    public PlannedLoad? Planned { get; private set; }

    /// <summary>A message after an action on this page (a run could not be deleted, say).</summary>
    [TempData] public string? Message { get; set; }

    /// <summary>The run's kind and its run-page partial; null for a kind this build does not have.</summary>
    public KindPage? KindPage { get; private set; }

    public RunReport Report { get; private set; } = null!;
    public string ChartJson { get; private set; } = "{}";

    /// <summary>For runs with several series: each as a percentage of <see cref="Baseline"/> (the percentage table).</summary>
    public IReadOnlyList<ComparisonRow> Comparison { get; private set; } = [];
    public string? Baseline { get; private set; }

    /// <summary>How the run's kind sets its series side by side: whether they make one summary, and per what they are compared.</summary>
    public SeriesBasis SeriesBasis { get; private set; } = SeriesBasis.Alike;

    /// <summary>Time windows, warm-up and episodes of the whole run, or of <see cref="AnalysedSeries"/>.</summary>
    public RunAnalysis? Analysis { get; private set; }
    public string? AnalysedSeries { get; private set; }
    public string? AnalysisError { get; private set; }

    /// <summary>For a completed run of a saved benchmark: its limits' verdict and its place in the history.</summary>
    public HistoryPoint? History { get; private set; }

    /// <summary>An open-model run's generator: target vs. achieved per second, late starts; null for a closed run.</summary>
    public OpenLoadReport? OpenLoad { get; private set; }

    /// <summary>An open-model run's schedule in words.</summary>
    public string? Schedule { get; private set; }

    /// <summary>The variant (or phase) the reader picked at the top (<c>?series=</c>); null for all of them side by side.</summary>
    public SeriesStatistics? Picked { get; private set; }

    /// <summary>A live open-model run's target rate, [seconds, operations per second] pairs, for its rate chart; null otherwise.</summary>
    public string? TargetRateJson { get; private set; }

    /// <summary>What the analysis and the per-sample chart show of an open-model run: corrected latency or service time (<c>?latency=service</c>).</summary>
    public LatencyBasis Basis { get; private set; }

    /// <summary>A run on each of several agents: its table per configuration (per phase), as the Markdown and text lead with.</summary>
    public IReadOnlyList<AnswerTable> Configurations { get; private set; } = [];

    public async Task<IActionResult> OnGetAsync(long id, string? baseline, int? window, string? series, string? latency, CancellationToken ct)
    {
        if (!Api.LatencyBasisQuery.TryParse(latency, out var basis)) AnalysisError = Api.LatencyBasisQuery.Message;
        var report = await queries.ReportAsync(id, ct);
        if (Reports.Report.IsReport(HttpContext) && Reports.Report.RefuseRun(this, id, report?.Run) is { } refused) return refused;
        if (report is null) return NotFound();
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
            // The reader's pick, else the kind's own baseline (Table: both toggles on, the .NET Framework defaults), else the first.
            var preferred = kinds.BaselineSeries(report.Run);
            Baseline = report.Series.Any(s => s.Name == baseline) ? baseline : report.Series.Any(s => s.Name == preferred) ? preferred : report.Series[0].Name;
            SeriesBasis = kinds.SeriesBasis(report.Run);
            if (SeriesBasis.Percentages)
                Comparison = BaselineComparison.Compare(report.Series.Select(s => (s.Name, s.Statistics)).ToList(), Baseline!,
                    SeriesBasis.Unit is null ? null : SeriesBasis.UnitsOf);
        }
        if (report.Run.Status.IsFinal()) Configurations = Core.Reports.Configurations.ConfigurationAnswer.Of(report.Run, report.Digest);
        Picked = report.Series.FirstOrDefault(s => s.Name == series);
        ChartJson = RunCharts.Build(shown, Analysis, OpenLoad, Picked?.Name);
        if (!report.Run.Status.IsFinal() && kinds.Profile(report.Run) is { } profile) TargetRateJson = RunCharts.TargetRate(profile);
        History = await history.PointAsync(report.Run, ct, report.Statistics);
        Webhooks = await notifications.ForRunAsync(id, ct);
        Planned = kinds.Planned(report.Run);
        var summary = report.Run.Status.IsFinal() ? History?.Summary ?? RunSummary.From(report.Statistics) : null;
        Outcome = RunOutcome.Judge(report.Run, summary, runsOptions.Value, History?.Thresholds, History?.History);
        if (Reports.Report.IsReport(HttpContext)) Reports.Report.Attach(Response, $"run-{id}-report");
        return Page();
    }

    /// <summary>The same parameters, queued again; its page next.</summary>
    public async Task<IActionResult> OnPostAgainAsync(long id, CancellationToken ct)
    {
        switch (await queue.AgainAsync(id, ct))
        {
            case null: return NotFound();
            case { IsValid: true, Run: { } again }: return Redirect($"/runs/{again.Id}");
            case var refused:
                Message = "Not queued again: " + string.Join(" ", refused.Errors.SelectMany(e => e.Value));
                return Redirect($"/runs/{id}");
        }
    }

    /// <summary>A saved benchmark with this run's parameters, opened in the editor.</summary>
    public async Task<IActionResult> OnPostSaveAsync(long id, string? name, CancellationToken ct)
    {
        if (await queries.FindAsync(id, ct) is not { } run || kinds.Find(run.Kind) is not { } kind) return NotFound();
        // A run on each agent counts its agents in Agents too: saved as the agents it ran on each of, not as a load to divide.
        var onEach = Core.Agents.OnEach.Parse(run.OnEachJson);
        var (saved, errors) = await benchmarks.SaveAsync(null, name ?? "", kind.Deserialize(run.ParametersJson), cron: null, enabled: true, ct,
            agents: onEach is null ? run.Agents : null, onEach: onEach);
        if (saved is null)
        {
            Message = "Not saved: " + string.Join(" ", errors.SelectMany(e => e.Value));
            return Redirect($"/runs/{id}");
        }
        return Redirect($"/benchmarks/edit/{saved.Id}");
    }

    /// <summary>Deletes the run with its samples, once the reader has confirmed it on the page.</summary>
    public async Task<IActionResult> OnPostDeleteAsync(long id, bool confirm, CancellationToken ct)
    {
        if (!confirm)
        {
            Message = "Tick the box to confirm that the run and its samples go.";
            return Redirect($"/runs/{id}");
        }
        switch (await queue.DeleteAsync(id, ct))
        {
            case DeleteOutcome.NotFound: return NotFound();
            case DeleteOutcome.StillRunning:
                Message = "A running run cannot be deleted: cancel it first.";
                return Redirect($"/runs/{id}");
            default:
                return Redirect("/?deleted=" + id);
        }
    }

    public async Task<IActionResult> OnPostCancelAsync(long id, CancellationToken ct)
    {
        if (await queue.CancelAsync(id, ct) == CancelOutcome.NotFound) return NotFound();
        return Redirect($"/runs/{id}");
    }
}
