using System.Net;

namespace BenchDashboard.Web.Security;

/// <summary>The pure decisions behind <see cref="AdminGate"/>, kept apart so they can be tested one by one.</summary>
public static class AccessRules
{
    /// <summary>
    /// True when every address the server listens on is loopback (the default 127.0.0.1:5080), or when it
    /// reports none (an in-memory test server). "+", "*", 0.0.0.0 and [::] listen everywhere.
    /// </summary>
    public static bool LoopbackOnly(IEnumerable<string> addresses) => addresses.All(address =>
    {
        var host = Uri.TryCreate(address.Replace("://+", "://any-host").Replace("://*", "://any-host"), UriKind.Absolute, out var uri) ? uri.Host : "";
        return host == "localhost" || (IPAddress.TryParse(host.Trim('[', ']'), out var ip) && IPAddress.IsLoopback(ip));
    });

    /// <summary>
    /// Reads change nothing; everything else starts, changes, cancels or deletes. The benchmark editor is an
    /// administrator's page even to read: it shows a saved benchmark's header values and body in full. So is an
    /// export of the definitions: with fingerprints in place of secrets it would import as broken benchmarks.
    /// </summary>
    public static bool NeedsAdmin(string method, PathString path) =>
        !(HttpMethods.IsGet(method) || HttpMethods.IsHead(method) || HttpMethods.IsOptions(method))
        || path.StartsWithSegments("/benchmarks/edit") || path.StartsWithSegments("/api/benchmarks/export");

    /// <summary>
    /// Paths anyone may use whatever the settings: signing in, health probes, static assets, the built-in targets,
    /// and the agents' link (it checks the agent's own key).
    /// </summary>
    public static bool IsAlwaysOpen(PathString path) =>
        path.StartsWithSegments("/login") || path.StartsWithSegments(Core.Agents.AgentProtocol.Path) || path.StartsWithSegments("/healthz") || path.StartsWithSegments("/target")
        || path.StartsWithSegments("/css") || path.StartsWithSegments("/js") || path.StartsWithSegments("/lib");

    /// <summary>
    /// Constant-time comparison of hashes, so a wrong key's timing says nothing about the right one, not even
    /// its length.
    /// </summary>
    public static bool SecretMatches(string? given, string? expected) =>
        !string.IsNullOrEmpty(given) && !string.IsNullOrEmpty(expected)
        && System.Security.Cryptography.CryptographicOperations.FixedTimeEquals(
            System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(given)),
            System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(expected)));

    /// <summary>The token of an <c>Authorization: Bearer …</c> header, or null.</summary>
    public static string? BearerToken(HttpRequest request) =>
        request.Headers.Authorization.ToString() is var a && a.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase) ? a[7..].Trim() : null;

    /// <summary>
    /// A request that came through a proxy says so; behind one, "loopback only" means nothing. A trusted proxy's
    /// X-Forwarded-For is consumed by the forwarded-headers middleware, which leaves X-Original-For in its place.
    /// </summary>
    public static bool CameThroughProxy(HttpRequest request)
    {
        var headers = request.Headers;
        if (headers.ContainsKey("X-Forwarded-For") || headers.ContainsKey("Forwarded") || headers.ContainsKey("X-Forwarded-Host")
            || headers.ContainsKey("X-Original-For") || headers.ContainsKey("X-Original-Proto") || headers.ContainsKey("Via"))
            return true;
        // nginx's proxy_pass as it comes adds none of those, but speaks HTTP/1.0 to the app; browsers speak 1.1 or 2.
        if (HttpProtocol.IsHttp10(request.Protocol)) return true;
        // A browser says which page it came from: one on another host came through whatever forwarded it here.
        return !IsLoopbackAddress(headers.Origin) || !IsLoopbackAddress(headers.Referer);
    }

    /// <summary>
    /// A change asked for by another site: a browser that says so (<c>Sec-Fetch-Site</c> other than same-origin or
    /// none), or an <c>Origin</c> other than this page's own (another port of localhost is another site's page).
    /// Clients that are not browsers send neither, and are not refused for it.
    /// </summary>
    public static bool IsCrossSite(HttpRequest request)
    {
        var site = request.Headers["Sec-Fetch-Site"].ToString();
        if (site.Length > 0 && site is not ("same-origin" or "none")) return true;
        var origin = request.Headers.Origin.ToString();
        return origin.Length > 0 && !string.Equals(origin.TrimEnd('/'), $"{request.Scheme}://{request.Host}", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>An absent header, or a URL whose host is loopback ("null", the origin of a file or sandbox, is not one).</summary>
    static bool IsLoopbackAddress(Microsoft.Extensions.Primitives.StringValues header) =>
        header.Count == 0 || header.ToString().Length == 0
        || Uri.TryCreate(header.ToString(), UriKind.Absolute, out var uri) && (uri.Host == "localhost" || IPAddress.TryParse(uri.Host.Trim('[', ']'), out var ip) && IPAddress.IsLoopback(ip));
}
