using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Processing.Telemetry;
using BenchDashboard.ServiceDefaults;
using BenchDashboard.Web.Agents;
using BenchDashboard.Web.Api;
using BenchDashboard.Web.Notifications;
using BenchDashboard.Web.Security;
using BenchDashboard.Web.Targets;
using Microsoft.Extensions.Configuration.Memory;

namespace BenchDashboard.Web.Hosting;

/// <summary>The dashboard's process: its services, the order requests pass through them, and its endpoints.</summary>
public static class DashboardHost
{
    public static async Task RunAsync(string[] args)
    {
        // A published app started from another folder would look for appsettings.json and wwwroot there.
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = args, ContentRootPath = ContentRoot.Find(args) });
        // Defaults below every other source, so they hold even without appsettings.json (and it still overrides them).
        builder.Configuration.Sources.Insert(0, new MemoryConfigurationSource { InitialData = ContentRoot.LogDefaults });

        // `dotnet run` listens on 127.0.0.1:5080 (launchSettings.json). A published app takes ASPNETCORE_URLS or Urls,
        // or else PORT as App Service for Linux and other platforms give it, on every interface.
        if (string.IsNullOrEmpty(builder.Configuration["urls"]) && int.TryParse(builder.Configuration["PORT"], out var port))
            builder.WebHost.UseUrls($"http://+:{port}");

        // One configuration under test (Runner:Mode=agent without --runner): its target endpoints and its agent, nothing of the dashboard's.
        if (ConfigurationHost.IsConfiguration(builder.Configuration))
        {
            await ConfigurationHost.RunAsync(builder);
            return;
        }

        // Storage, validation limits and queries shared with the standalone runner.
        builder.Services.AddBenchCore();
        // The runner: a child process of this one by default (Runner:Process; docs/runner.md).
        builder.Services.AddRunnerFor(builder.Configuration);
        // Metrics out through OTLP when Telemetry:OtlpEndpoint (or OTEL_EXPORTER_OTLP_ENDPOINT) is set: this process's
        // requests, and the runs too when the runner is in this process (a child exports its own; docs/telemetry.md).
        builder.Services.AddBenchTelemetry(builder.Configuration, "benchdash-dashboard", [RunnerMetrics.MeterName, .. TelemetrySetup.AspNetCoreMeters], RunnerMetrics.ExponentialHistograms);
        // Pages, the JSON API's plumbing, and the demo benchmark for a first start.
        builder.Services.AddWebServices();
        // The key ring in the results database, shared by every dashboard on it, encrypted with KeyRing:Certificate* when
        // set (/healthz says when it is not).
        builder.Services.AddSharedKeys();
        BenchDashboard.Web.Security.KeyRingProtection.Configure(builder.Services, builder.Configuration);

        var app = builder.Build();

        // The schema comes from migrations, applied here and nowhere else (a runner waits for them; a lock a killed
        // migration left behind is removed with a warning in the log; a PostgreSQL server that cannot be used yet is
        // tried again in the background while /healthz and the pages say why).
        try
        {
            await app.Services.MigrateAtStartAsync(app.Lifetime.ApplicationStopping);
        }
        catch (DatabaseUnusableException unusable)
        {
            // A damaged file stops the start with its reason and what to do, in one message: no stack trace.
            app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("BenchDashboard.Web").LogCritical("{Message}", unusable.Message);
            Environment.ExitCode = 1;
            return;
        }

        // In front of all that follows: the protective headers (content policy, no framing) for every response, then the
        // framework's host filtering (AllowedHosts), whose 400s carry them too (AddSecurityHeaders, AddTrustedHostsAndProxies).
        // X-Forwarded-For/-Proto only from the proxies in Proxies:* (App Service's front end there): no client speaks for itself.
        app.UseTrustedProxies();
        app.UseExceptionHandler();
        // A page that finds nothing answers with the status page in the layout; the API keeps its problem documents.
        app.UseStatusPages();
        app.UseStaticFiles();
        app.UseRouting();
        // Runner agents link over a WebSocket (AgentEndpoint); our own heartbeats and leases keep the link, not pings.
        app.UseWebSockets(new WebSocketOptions { KeepAliveInterval = TimeSpan.Zero });
        // Guessing the administrator's password or API key is slowed to Auth:GuessesPerMinute per address.
        app.UseRateLimiter();
        // Off loopback, only an administrator may start, change or cancel anything (Auth:*).
        app.UseAuthentication();
        app.UseMiddleware<AdminGate>();
        // The address administrators use is the one webhook links point to (unless Webhooks:PublicBaseUrl says otherwise).
        app.UsePublicAddress();
        app.UseAntiforgery();
        // Live progress is answered once a second, however many watch it (after the gate: it varies by reader).
        app.UseOutputCache();

        app.MapRazorPages();
        app.MapRunsApi();
        app.MapCompareApi();
        app.MapBenchmarksApi();
        app.MapAaChecksApi();
        app.MapAgents();
        app.MapTargets();
        app.MapOpenApi();
        // The same document, browsable (Swagger UI, from its package) at /api-docs.
        app.UseSwaggerUI(ui =>
        {
            ui.SwaggerEndpoint("/openapi/v1.json", "BenchDashboard API");
            ui.RoutePrefix = "api-docs";
            ui.DocumentTitle = "BenchDashboard API";
            // Swagger UI's page is its package's: a script of ours puts the dashboard's bar with a way back on top of it.
            ui.InjectStylesheet("/css/api-docs.css");
            ui.InjectJavascript("/js/api-docs.js");
        });
        app.MapHealthChecks("/healthz", new Microsoft.AspNetCore.Diagnostics.HealthChecks.HealthCheckOptions { ResponseWriter = BenchDashboard.Web.Health.HealthResponse.WriteAsync });

        await app.RunAsync();
    }
}
