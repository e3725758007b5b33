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
    public static bool CameThroughProxy(IHeaderDictionary headers) =>
        headers.ContainsKey("X-Forwarded-For") || headers.ContainsKey("Forwarded") || headers.ContainsKey("X-Forwarded-Host")
        || headers.ContainsKey("X-Original-For") || headers.ContainsKey("X-Original-Proto");
}
