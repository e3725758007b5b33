using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BenchDashboard.Web.Health;

/// <summary>/healthz as JSON: the overall status (200 healthy, 503 not) and each check's status and description.</summary>
public static class HealthResponse
{
    public static Task WriteAsync(HttpContext context, HealthReport report) =>
        context.Response.WriteAsJsonAsync(new
        {
            status = report.Status.ToString(),
            checks = report.Entries.ToDictionary(e => e.Key, e => new { status = e.Value.Status.ToString(), description = e.Value.Description }),
        });
}
