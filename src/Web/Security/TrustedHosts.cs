using System.Net;
using Microsoft.AspNetCore.HostFiltering;
using Microsoft.AspNetCore.HttpOverrides;

namespace BenchDashboard.Web.Security;

/// <summary>
/// Section "Proxies": which proxies' <c>X-Forwarded-For</c>/<c>X-Forwarded-Proto</c> count. A header sent by
/// anyone else is ignored, so a client cannot claim HTTPS (or another address) for itself.
/// </summary>
public sealed class ProxyOptions
{
    public const string Section = "Proxies";

    /// <summary>Addresses of reverse proxies in front of the dashboard (e.g. "127.0.0.1" for nginx on the same machine).</summary>
    public List<string> KnownProxies { get; set; } = [];

    /// <summary>Networks of reverse proxies, in CIDR ("10.0.0.0/8").</summary>
    public List<string> KnownNetworks { get; set; } = [];

    /// <summary>
    /// Trust the peer that connects, whoever it is: right on App Service, where only its front end can reach the
    /// app (from addresses that change). Null: true on App Service (WEBSITE_INSTANCE_ID is set), else false.
    /// </summary>
    public bool? AppServiceFrontEnd { get; set; }
}

/// <summary>Which Host names are answered, and which forwarded headers are believed.</summary>
public static class TrustedHosts
{
    /// <summary>The names a dashboard in Development on loopback answers to: a page elsewhere cannot reach it by DNS rebinding.</summary>
    public static readonly string[] LoopbackNames = ["localhost", "127.0.0.1", "[::1]"];

    public static IServiceCollection AddTrustedHostsAndProxies(this IServiceCollection services)
    {
        // The framework's host filtering takes AllowedHosts from configuration; with none set, a Development
        // dashboard listening on loopback answers loopback names only (400 for any other Host), and others any.
        services.AddOptions<HostFilteringOptions>().PostConfigure<IConfiguration, IHostEnvironment>((options, configuration, environment) =>
        {
            if (!string.IsNullOrWhiteSpace(configuration["AllowedHosts"])) return;
            options.AllowedHosts = environment.IsDevelopment() && AccessRules.LoopbackOnly(ListeningOn(configuration)) ? [.. LoopbackNames] : ["*"];
        });

        services.AddOptions<ProxyOptions>().BindConfiguration(ProxyOptions.Section)
            .Validate(o => o.KnownProxies.All(p => IPAddress.TryParse(p, out _)), "Proxies:KnownProxies holds IP addresses.")
            .Validate(o => o.KnownNetworks.All(n => System.Net.IPNetwork.TryParse(n, out _)), "Proxies:KnownNetworks holds CIDR networks such as 10.0.0.0/8.")
            .ValidateOnStart();
        // PostConfigure: the last word, after the framework's own setup, which ASPNETCORE_FORWARDEDHEADERS_ENABLED
        // makes clear both lists (and empty lists make its middleware believe every peer).
        services.AddOptions<ForwardedHeadersOptions>().PostConfigure<Microsoft.Extensions.Options.IOptions<ProxyOptions>>((options, proxies) =>
        {
            var o = proxies.Value;
            options.ForwardedHeaders = ForwardedHeaders.XForwardedFor | ForwardedHeaders.XForwardedProto;
            // Not even loopback by default (the framework's default): a proxy counts only when configured.
            options.KnownProxies.Clear();
            options.KnownIPNetworks.Clear();
            foreach (var proxy in o.KnownProxies) if (IPAddress.TryParse(proxy, out var address)) options.KnownProxies.Add(address);
            foreach (var network in o.KnownNetworks) if (System.Net.IPNetwork.TryParse(network, out var parsed)) options.KnownIPNetworks.Add(parsed);
            var onAppService = !string.IsNullOrEmpty(Environment.GetEnvironmentVariable("WEBSITE_INSTANCE_ID"));
            if (o.AppServiceFrontEnd ?? onAppService)
            {
                // Any peer: only the front end reaches an App Service app. One hop: the front end's own entry.
                options.KnownIPNetworks.Add(System.Net.IPNetwork.Parse("0.0.0.0/0"));
                options.KnownIPNetworks.Add(System.Net.IPNetwork.Parse("::/0"));
                options.ForwardLimit = 1;
            }
            // No proxy trusted: read no forwarded header at all, from any peer (also where the framework runs the middleware itself).
            if (options.KnownProxies.Count == 0 && options.KnownIPNetworks.Count == 0) options.ForwardedHeaders = ForwardedHeaders.None;
        });
        return services;
    }

    /// <summary>
    /// Reads forwarded headers from trusted proxies, when there are any (with none, the options read no header
    /// and the middleware is left out).
    /// </summary>
    public static IApplicationBuilder UseTrustedProxies(this IApplicationBuilder app)
    {
        // ASPNETCORE_FORWARDEDHEADERS_ENABLED (App Service for Linux sets it) makes the framework add the same
        // middleware, with these options, in front of everything: a second pass would believe one hop more.
        if (string.Equals(app.ApplicationServices.GetRequiredService<IConfiguration>()["FORWARDEDHEADERS_ENABLED"], "true", StringComparison.OrdinalIgnoreCase)) return app;
        var options = app.ApplicationServices.GetRequiredService<Microsoft.Extensions.Options.IOptions<ForwardedHeadersOptions>>().Value;
        return options.ForwardedHeaders != ForwardedHeaders.None ? app.UseForwardedHeaders() : app;
    }

    /// <summary>
    /// The addresses the server will listen on, from configuration, in the host's order: Kestrel:Endpoints, else
    /// urls (ASPNETCORE_URLS, --urls, launchSettings.json, and PORT through Program), else ASPNETCORE_HTTP_PORTS /
    /// HTTPS_PORTS on every interface (the .NET container images set HTTP_PORTS=8080), else Kestrel's localhost:5000.
    /// Addresses given in code (Listen*) are not seen: this app sets none.
    /// </summary>
    static IEnumerable<string> ListeningOn(IConfiguration configuration)
    {
        var endpoints = configuration.GetSection("Kestrel:Endpoints").GetChildren().Select(e => e["Url"]).OfType<string>().ToList();
        if (endpoints.Count > 0) return endpoints;
        var urls = configuration["urls"];
        if (!string.IsNullOrWhiteSpace(urls)) return Split(urls);
        var ports = Split(configuration["http_ports"]).Concat(Split(configuration["https_ports"])).ToList();
        if (ports.Count > 0) return ports.Select(port => $"http://*:{port}");
        return int.TryParse(configuration["PORT"], out _) ? ["http://+"] : ["http://localhost:5000"];
    }

    static string[] Split(string? list) => (list ?? "").Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
