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

    /// <summary>Reads change nothing; everything else starts, changes, cancels or deletes.</summary>
    public static bool IsMutation(string method) => !(HttpMethods.IsGet(method) || HttpMethods.IsHead(method) || HttpMethods.IsOptions(method));

    /// <summary>Paths anyone may use whatever the settings: signing in, health probes, static assets, the built-in targets.</summary>
    public static bool IsAlwaysOpen(PathString path) =>
        path.StartsWithSegments("/login") || path.StartsWithSegments("/healthz") || path.StartsWithSegments("/target")
        || path.StartsWithSegments("/css") || path.StartsWithSegments("/js") || path.StartsWithSegments("/lib");

    /// <summary>Constant-time comparison, so a wrong key's timing says nothing about the right one.</summary>
    public static bool SecretMatches(string? given, string? expected) =>
        !string.IsNullOrEmpty(given) && !string.IsNullOrEmpty(expected)
        && System.Security.Cryptography.CryptographicOperations.FixedTimeEquals(
            System.Text.Encoding.UTF8.GetBytes(given), System.Text.Encoding.UTF8.GetBytes(expected));
}
