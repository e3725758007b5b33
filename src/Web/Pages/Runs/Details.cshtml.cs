using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>One run: summary, percentile ladder, connection times, response classes, cold vs warm, charts.</summary>
public sealed class DetailsModel(RunQueries queries, RunQueue queue) : PageModel
{
    public RunReport Report { get; private set; } = null!;
    public string ChartJson { get; private set; } = "{}";

    public async Task<IActionResult> OnGetAsync(long id, CancellationToken ct)
    {
        if (await queries.ReportAsync(id, ct) is not { } report) return NotFound();
        Report = report;
        ChartJson = RunCharts.Build(report.Samples);
        return Page();
    }

    public async Task<IActionResult> OnPostCancelAsync(long id, CancellationToken ct)
    {
        if (await queue.CancelAsync(id, ct) == CancelOutcome.NotFound) return NotFound();
        return Redirect($"/runs/{id}");
    }
}
