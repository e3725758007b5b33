using BenchDashboard.Core.Notifications;
using BenchDashboard.Web.Security;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Notifications;

/// <summary>
/// The dashboard's address for links that leave it (a webhook's link to a run): Webhooks:PublicBaseUrl when set;
/// else the scheme, host and path base an identified administrator last reached it by (after trusted proxies'
/// forwarded headers, so App Service's https name), since no request is at hand when a run ends; else the first
/// address it listens on. Only administrators' requests count: anyone else could name any Host and have
/// later links point to a site of theirs.
/// </summary>
public sealed class PublicAddress(IOptions<WebhookOptions> options, IServer server)
{
    volatile string? observed;

    public void Observe(HttpContext context)
    {
        if (!AdminGate.IsIdentifiedAdmin(context) || !context.Request.Host.HasValue) return;
        var request = context.Request;
        observed = $"{request.Scheme}://{request.Host}{request.PathBase}";
    }

    public string BaseUrl =>
        options.Value.PublicBaseUrl?.TrimEnd('/') is { Length: > 0 } configured ? configured
        : observed ?? Listening() ?? "http://localhost";

    string? Listening()
    {
        var address = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault();
        // "http://+:8080" and "http://0.0.0.0:8080" are every interface, not an address to link to.
        return address?.Replace("://+", "://localhost").Replace("://*", "://localhost").Replace("://0.0.0.0", "://localhost").Replace("://[::]", "://localhost").TrimEnd('/');
    }
}
