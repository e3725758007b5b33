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
            return await problems.TryWriteAsync(new ProblemDetailsContext
            {
                HttpContext = context,
                ProblemDetails = new Microsoft.AspNetCore.Mvc.ProblemDetails
                {
                    Status = StatusCodes.Status503ServiceUnavailable, Title = "The results database cannot be used right now.", Detail = $"{char.ToUpperInvariant(fault.Reason[0])}{fault.Reason[1..]}.",
                },
            });
        }
        return false;
    }
}
