using BenchDashboard.Web.Agents;
using BenchDashboard.Web.Demo;
using BenchDashboard.Web.Notifications;
using BenchDashboard.Web.Pages.Reports;
using BenchDashboard.Web.Security;
using Microsoft.AspNetCore.Authentication.Cookies;

namespace BenchDashboard.Web;

public static class WebServices
{
    public static IServiceCollection AddWebServices(this IServiceCollection services)
    {
        // Each page that has a report answers at a second address too, in the layout that inlines its assets.
        services.AddRazorPages(pages => pages.Conventions.AddReports());
        services.AddSingleton<ReportAssets>();
        // Host names answered (AllowedHosts; loopback names only in Development on loopback) and trusted proxies (Proxies:*).
        services.AddTrustedHostsAndProxies();
        // The same protective headers on every response, ahead of host filtering so that its 400s carry them.
        services.AddSecurityHeaders();
        // SecurityHeaders sends X-Frame-Options: DENY on every response, not only where a token is issued.
        services.AddAntiforgery(o => o.SuppressXFrameOptionsHeader = true);
        // Each kind's form and partials, matched to the registered kinds (a missing one stops the start).
        services.AddSingleton<Pages.Kinds.KindForms>();
        // On App Service with SQLite on the temp disk, every page says the history will be lost (the layout).
        services.AddSingleton<Pages.Shared.HistoryOnTempDisk>();
        services.AddOptions<AuthOptions>().BindConfiguration(AuthOptions.Section).ValidateDataAnnotations().ValidateOnStart();
        services.AddGuessLimits();
        // Runner agents on other machines: who may link here, who is linked, and the runs spread over them.
        services.AddAgentRuns();
        services.AddAuthentication(CookieAuthenticationDefaults.AuthenticationScheme).AddCookie(cookie =>
        {
            cookie.LoginPath = "/login";
            cookie.Cookie.Name = "BenchDashboard.Admin";
            cookie.Cookie.HttpOnly = true;
            cookie.Cookie.SameSite = SameSiteMode.Lax;
            // Behind App Service's front end the app sees plain HTTP; the browser talks HTTPS, so always mark it Secure
            // (a plain-HTTP sign-in on loopback in Development still works).
            cookie.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            cookie.Events.OnSigningIn = context =>
            {
                if (!context.HttpContext.RequestServices.GetRequiredService<IHostEnvironment>().IsDevelopment()) context.CookieOptions.Secure = true;
                return Task.CompletedTask;
            };
            cookie.ExpireTimeSpan = TimeSpan.FromHours(8);
        });
        services.AddProblemDetails();
        services.AddExceptionHandler<Api.RequestExceptionHandler>();
        // A value that cannot be bound throws in every environment (not only Development), so that the handler
        // above can answer a 400 naming it; left to itself, the framework answers an empty 400 in Production.
        services.Configure<Microsoft.AspNetCore.Routing.RouteHandlerOptions>(o => o.ThrowOnBadRequest = true);
        // /healthz, for App Service's health check and swap warm-up (WEBSITE_SWAP_WARMUP_PING_PATH).
        services.AddHealthChecks()
            .AddCheck<Health.DatabaseHealthCheck>("database")
            .AddCheck<Health.RunnerHealthCheck>("runner")
            .AddCheck<KeyRingHealthCheck>("keyRing");
        // Each kind's parameters as its own schema in the body of POST /api/runs, discriminated by "kind".
        services.AddOpenApi(openApi =>
        {
            openApi.AddDocumentTransformer((document, _, _) =>
            {
                document.Info.Title = "BenchDashboard API";
                document.Info.Description = "Queue runs of any benchmark kind, watch them, read their statistics, analyses and samples, and compare them. Errors are problem details naming the field.";
                return Task.CompletedTask;
            });
            openApi.AddOperationTransformer<Api.RunRequestSchema>();
            openApi.AddOperationTransformer<Api.BenchmarkSchema>();
        });
        // What a page or poll of a run shows changes at most once a second (a heartbeat): fifty viewers cost one answer.
        services.AddOutputCache(cache => cache.AddPolicy(ViewerCache.Policy, ViewerCache.Build));
        services.AddOptions<DemoOptions>().BindConfiguration(DemoOptions.Section);
        services.AddHostedService<DemoSeeder>();
        services.AddHostedService<Maintenance.RetentionService>();
        services.AddHostedService<Maintenance.SampleUpgradeService>();
        services.AddHostedService<Maintenance.HistoryJudgingService>();
        // A benchmark's webhooks, sent by the dashboard (always there, whichever runner ran the run).
        services.AddWebhooks();
        return services;
    }
}
