namespace BenchDashboard.Web.Hosting;

/// <summary>
/// What an empty error answer becomes: on a page route, the status page in the layout (<c>/status/404</c>,
/// re-executed, so the address and the status stay); on the API, the targets and the other machine-read
/// addresses, a problem document as before.
/// </summary>
public static class StatusPages
{
    /// <summary>Addresses read by programs, not people: their errors stay problem documents (or the target's own answer).</summary>
    static readonly string[] MachinePrefixes = ["/api", "/openapi", "/healthz", "/target", Core.Agents.AgentProtocol.Path];

    public static IApplicationBuilder UseStatusPages(this IApplicationBuilder app)
    {
        app.UseWhen(IsPageRequest, page => page.UseStatusCodePagesWithReExecute("/status/{0}"));
        app.UseWhen(context => !IsPageRequest(context), machine => machine.UseStatusCodePages());
        return app;
    }

    /// <summary>A page route's address: not a machine's, and not a file's (a missing script or image stays a bare 404).</summary>
    public static bool IsPageRequest(HttpContext context)
    {
        var path = context.Request.Path;
        if (MachinePrefixes.Any(prefix => path.StartsWithSegments(prefix, StringComparison.OrdinalIgnoreCase))) return false;
        var last = path.Value?[(path.Value.LastIndexOf('/') + 1)..] ?? "";
        return !last.Contains('.');
    }
}
