using System.Text.RegularExpressions;
using BenchDashboard.Core.Data;
using Microsoft.AspNetCore.Diagnostics;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Turns the two failures a request can meet that are not bugs into problems that say what happened, in
/// every environment: a value that could not be bound (<c>?benchmarkId=abc</c>, <c>?includeStats=0</c>, a body
/// that is not JSON) is a 400 naming the parameter; a results database that refuses (full, locked, read-only)
/// is a 503 with the reason. Anything else stays a 500, logged by the framework.
/// </summary>
public sealed partial class RequestExceptionHandler(IProblemDetailsService problems, ILogger<RequestExceptionHandler> logger) : IExceptionHandler
{
    [GeneratedRegex("parameter \"(?:[^\"]*\\s)?([A-Za-z0-9_]+)\"")]
    private static partial Regex ParameterName();

    public async ValueTask<bool> TryHandleAsync(HttpContext context, Exception exception, CancellationToken ct)
    {
        if (exception is BadHttpRequestException bad)
        {
            var field = ParameterName().Match(bad.Message) is { Success: true } m ? m.Groups[1].Value : "request";
            context.Response.StatusCode = bad.StatusCode;
            return await problems.TryWriteAsync(new ProblemDetailsContext
            {
                HttpContext = context,
                ProblemDetails = new HttpValidationProblemDetails(new Dictionary<string, string[]> { [field] = [bad.Message] })
                {
                    Status = bad.StatusCode, Title = "A value in the request could not be read.",
                },
            });
        }
        if (StorageFault.Of(exception) is { } fault)
        {
            logger.LogWarning("A request met a storage fault: {Reason}", fault.Reason);
            StorageFault.ForgetConnections();
            context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            context.Response.Headers.RetryAfter = "5";
            var reason = $"{char.ToUpperInvariant(fault.Reason[0])}{fault.Reason[1..]}.";
            // A page asked for by a browser is answered with a page; the API keeps its problem documents.
            if (!context.Request.Path.StartsWithSegments("/api"))
            {
                context.Response.ContentType = "text/html; charset=utf-8";
                await context.Response.WriteAsync(UnavailablePage(reason), ct);
                return true;
            }
            return await problems.TryWriteAsync(new ProblemDetailsContext
            {
                HttpContext = context,
                ProblemDetails = new Microsoft.AspNetCore.Mvc.ProblemDetails
                {
                    Status = StatusCodes.Status503ServiceUnavailable, Title = "The results database cannot be used right now.", Detail = reason,
                },
            });
        }
        return false;
    }

    /// <summary>A page of its own, the site's look without its layout (which may need the database that just failed).</summary>
    static string UnavailablePage(string reason) => $"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Results unavailable · BenchDashboard</title><link rel="stylesheet" href="/css/site.css" /></head>
        <body><header><nav><a class="brand" href="/">BenchDashboard</a><a href="/">Runs</a><a href="/benchmarks">Benchmarks</a><a href="/healthz">Health</a></nav></header>
        <main><h1>The results database cannot be used right now</h1><p id="storage-fault">{System.Net.WebUtility.HtmlEncode(reason)}</p>
        <p class="muted">Nothing stored was changed. Try again in a moment; <a href="/healthz">/healthz</a> says what the dashboard can reach.</p></main></body></html>
        """;
}
