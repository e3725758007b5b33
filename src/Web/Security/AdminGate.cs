using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Security;

/// <summary>
/// Lets a request through when it needs no administrator, or comes from one: the API key on the API, and
/// on the pages a signed-in cookie, the key, or (when trusted) App Service authentication. The API does
/// not accept the cookie or Easy Auth's session: a cross-site form could post with those, the key it cannot.
/// Refused API calls get 401 with a problem; refused pages go to the sign-in page.
/// </summary>
public sealed class AdminGate(RequestDelegate next, IOptions<AuthOptions> options, IServer server, IHostEnvironment environment, ILogger<AdminGate> logger)
{
    bool? required;

    const string AdminItem = "BenchDashboard.IdentifiedAdministrator";

    /// <summary>
    /// Whether this request comes from an identified administrator (key, sign-in or trusted Easy Auth), who is
    /// shown secrets in full; everyone else sees fingerprints, also where sign-in was turned off
    /// (<c>Auth:Required=never</c>). The one exception is the local mode <c>auto</c> chooses (Development,
    /// listening on loopback only, no proxy): whoever reads is at this machine and may change anything, so is
    /// the administrator, and a target's <c>?ms=2</c> is shown as it is.
    /// </summary>
    public static bool IsIdentifiedAdmin(HttpContext context) => context.Items.TryGetValue(AdminItem, out var admin) && admin is true;

    public async Task InvokeAsync(HttpContext context)
    {
        var admin = IsAdmin(context);
        context.Items[AdminItem] = admin || IsLocalMode(context);
        var changes = AccessRules.NeedsAdmin(context.Request.Method, context.Request.Path);
        var needsAdmin = changes || !options.Value.PublicRead;
        if (changes && !admin && IsLocalMode(context) && AccessRules.IsCrossSite(context.Request) && !AccessRules.IsAlwaysOpen(context.Request.Path))
        {
            // Local mode trusts whoever is at this machine, not a page of another site their browser has open.
            await Results.Problem(statusCode: StatusCodes.Status403Forbidden, title: "A page of another site may not change anything here",
                detail: $"This request came from {Shown(context.Request.Headers.Origin.ToString())}, not from this dashboard's own pages ({context.Request.Scheme}://{context.Request.Host}). Send it from the dashboard, or with the administrator's key.").ExecuteAsync(context);
            return;
        }
        if (!needsAdmin || admin || AccessRules.IsAlwaysOpen(context.Request.Path) || !Required(context))
        {
            await next(context);
            return;
        }

        if (context.Request.Path.StartsWithSegments("/api"))
        {
            context.Response.Headers.WWWAuthenticate = "Bearer";
            await Results.Problem(statusCode: StatusCodes.Status401Unauthorized, title: "An administrator API key is required",
                detail: "Send the key from Auth:ApiKey in an X-Api-Key header (or Authorization: Bearer).").ExecuteAsync(context);
            return;
        }
        var back = context.Request.Method == HttpMethods.Get ? context.Request.Path + context.Request.QueryString : context.Request.Path.ToString();
        context.Response.Redirect("/login?returnUrl=" + Uri.EscapeDataString(back));
    }

    bool IsAdmin(HttpContext context)
    {
        var o = options.Value;
        var request = context.Request;
        var bearer = AccessRules.BearerToken(request);
        if (AccessRules.SecretMatches(request.Headers["X-Api-Key"].ToString(), o.ApiKey) || AccessRules.SecretMatches(bearer, o.ApiKey)) return true;
        if (request.Path.StartsWithSegments("/api")) return false;
        if (context.User.Identity?.IsAuthenticated == true) return true;
        var trustEasyAuth = o.TrustEasyAuth ?? string.Equals(Environment.GetEnvironmentVariable("WEBSITE_AUTH_ENABLED"), "True", StringComparison.OrdinalIgnoreCase);
        var principal = request.Headers["X-MS-CLIENT-PRINCIPAL-NAME"].ToString();
        return trustEasyAuth && principal.Length > 0 && o.Admins.Contains(principal, StringComparer.OrdinalIgnoreCase);
    }

    static string Shown(string origin) => origin.Length == 0 ? "another site" : origin.Length > 100 ? origin[..100] + "…" : origin;

    bool IsLocalMode(HttpContext context) =>
        options.Value.Required.Trim().Equals("auto", StringComparison.OrdinalIgnoreCase) && !Required(context);

    bool Required(HttpContext context)
    {
        // A proxy in front makes even a loopback-only app reachable by anyone who reaches the proxy.
        if (options.Value.Required.Trim().Equals("auto", StringComparison.OrdinalIgnoreCase) && AccessRules.CameThroughProxy(context.Request)) return true;
        if (required is { } known) return known;
        var setting = options.Value.Required.Trim().ToLowerInvariant();
        var addresses = server.Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        required = setting switch
        {
            "always" => true,
            "never" => false,
            _ => !environment.IsDevelopment() || !AccessRules.LoopbackOnly(addresses),
        };
        if (required == true && string.IsNullOrEmpty(options.Value.ApiKey) && string.IsNullOrEmpty(options.Value.AdminPassword))
            logger.LogWarning("Administrator sign-in is required (listening on {Addresses}) but neither Auth:ApiKey nor Auth:AdminPassword is set: runs can only be started through App Service authentication, if at all.",
                string.Join(", ", addresses));
        return required.Value;
    }
}
