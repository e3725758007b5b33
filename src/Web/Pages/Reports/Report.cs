using System.Text.RegularExpressions;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Microsoft.AspNetCore.Mvc.ViewFeatures;
using Microsoft.Net.Http.Headers;

namespace BenchDashboard.Web.Pages.Reports;

/// <summary>
/// What a page does differently when it is rendered as a report: a layout that inlines its assets and drops the
/// navigation, no forms (<see cref="ReportFormsTagHelper"/>), the answer as a download, and a page of its own,
/// not a download, when there is nothing to report yet.
/// </summary>
public static partial class Report
{
    public const string Layout = "_ReportLayout";

    /// <summary>Whether this request is for a page's report address.</summary>
    public static bool IsReport(HttpContext context) => context.GetEndpoint()?.Metadata.GetMetadata<ReportEndpoint>() is not null;

    /// <summary>
    /// Whether the page shows secrets in full: to an identified administrator, and never in a report, which is a file
    /// made to be sent on (its secrets are fingerprinted as for any other reader).
    /// </summary>
    public static bool RevealsSecrets(HttpContext context) => Security.AdminGate.IsIdentifiedAdmin(context) && !IsReport(context);

    /// <summary>The report's address for the page the reader is on: the same query, so it reports what they see.</summary>
    public static string LinkFor(HttpRequest request) =>
        request.Path.Value!.TrimEnd('/') + "/report" + request.QueryString;

    /// <summary>Answers the page as a file to save: <paramref name="name"/> made safe for every file system, ".html" added.</summary>
    public static void Attach(HttpResponse response, string name)
    {
        var safe = UnsafeInFileNames().Replace(name, "-").Trim('-');
        if (safe.Length > 100) safe = safe[..100].TrimEnd('-');
        response.Headers.ContentDisposition = new ContentDispositionHeaderValue("attachment") { FileName = safe + ".html" }.ToString();
    }

    /// <summary>
    /// A page, shown in the browser and never saved, saying why there is no report (<paramref name="status"/>: 404
    /// for a run that does not exist, 409 for one that has not finished, 400 for a comparison that cannot be made).
    /// </summary>
    public static IActionResult Unavailable(PageModel page, int status, string title, string message, string? backTo = null)
    {
        page.Response.StatusCode = status;
        return new PartialViewResult
        {
            ViewName = "_ReportUnavailable",
            ViewData = new ViewDataDictionary<ReportUnavailable>(page.ViewData, new ReportUnavailable(title, message, backTo)),
            StatusCode = status,
        };
    }

    /// <summary>Why a run has no report (it does not exist: 404; it has not finished: 409), or null when it has one.</summary>
    public static IActionResult? RefuseRun(PageModel page, long id, Run? run) => run switch
    {
        null => Unavailable(page, StatusCodes.Status404NotFound, $"Run #{id} does not exist", "There is no run with this number, so there is no report of it: it may have been deleted.", "/"),
        { Status: var status } when !status.IsFinal() => Unavailable(page, StatusCodes.Status409Conflict, $"Run #{id} has not finished",
            $"The run is {status.ToApiName()}: its report can be saved once it has ended. Its page shows it as it runs.", $"/runs/{id}"),
        _ => null,
    };

    /// <summary>
    /// Why a comparison has no report (runs still queued or running: 409; no items, or items that cannot be
    /// compared: 400 with the page's own messages), or null when it has one.
    /// </summary>
    public static IActionResult? RefuseComparison(PageModel page, RunComparison? comparison, IReadOnlyList<Run> pending, IReadOnlyDictionary<string, string[]> errors)
    {
        if (pending.Count > 0)
            return Unavailable(page, StatusCodes.Status409Conflict, "The runs have not finished",
                $"Waiting for {string.Join(", ", pending.Select(r => $"#{r.Id} ({r.Status.ToApiName()})"))}: the comparison's report can be saved once they have ended.",
                page.Request.Path.Value![..^"/report".Length] + page.Request.QueryString);
        if (comparison is not null) return null;
        var messages = errors.SelectMany(e => e.Value.Select(m => $"{e.Key}: {m}")).ToList();
        return Unavailable(page, StatusCodes.Status400BadRequest, "Nothing to report",
            messages.Count > 0 ? string.Join(" ", messages) : "items: name two or more finished runs (or their phases or variants) to compare, as /compare/report?items=12,13 does.", "/compare");
    }

    [GeneratedRegex("[^A-Za-z0-9+_.-]+")]
    private static partial Regex UnsafeInFileNames();
}

/// <summary>Why a report cannot be had, and where to go instead.</summary>
public sealed record ReportUnavailable(string Title, string Message, string? BackTo);
