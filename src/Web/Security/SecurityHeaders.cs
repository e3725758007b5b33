namespace BenchDashboard.Web.Security;

/// <summary>
/// The same protective headers on every response, pages, API, errors and static files alike: no page may be
/// framed (its Delete and Run again buttons could be clicked through an invisible frame), scripts and styles
/// come only from this site's own files (the pages carry no inline script, handler or style attribute; JSON
/// data blocks are not scripts; only Swagger UI's page may style inline), nothing is sniffed into another type, and no address leaks to other sites.
/// </summary>
public sealed class SecurityHeaders(RequestDelegate next)
{
    public const string ContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; "
        + "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

    /// <summary>Swagger UI (/api-docs, from its package) sets inline styles; its scripts are files like ours.</summary>
    public static readonly string ApiDocsContentSecurityPolicy = ContentSecurityPolicy.Replace("style-src 'self';", "style-src 'self' 'unsafe-inline';");

    public Task InvokeAsync(HttpContext context)
    {
        var policy = context.Request.Path.StartsWithSegments("/api-docs") ? ApiDocsContentSecurityPolicy : ContentSecurityPolicy;
        // Set as the response starts: an exception handler clears the headers set before it.
        context.Response.OnStarting(() =>
        {
            var headers = context.Response.Headers;
            headers.ContentSecurityPolicy = policy;
            headers.XFrameOptions = "DENY";
            headers.XContentTypeOptions = "nosniff";
            headers["Referrer-Policy"] = "same-origin";
            return Task.CompletedTask;
        });
        return next(context);
    }
}

/// <summary>Puts <see cref="SecurityHeaders"/> in front of everything, the framework's host filtering included.</summary>
public static class SecurityHeadersServices
{
    public static IServiceCollection AddSecurityHeaders(this IServiceCollection services)
    {
        // Startup filters wrap the pipeline in the order they were registered, the first outermost. The framework
        // registers host filtering's as the builder is made; ahead of it, its 400s carry the headers too.
        services.Insert(0, ServiceDescriptor.Singleton<IStartupFilter>(new First()));
        return services;
    }

    sealed class First : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.UseMiddleware<SecurityHeaders>();
            next(app);
        };
    }
}
