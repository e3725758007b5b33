namespace BenchDashboard.Core.Agents;

/// <summary>
/// An agent's own public base address (an App Service slot's <c>https://site-slot.azurewebsites.net</c>): what a run
/// "from outside" measures it at, seed 000's way (one interleaved variant per configuration). The agent sends it in its
/// hello frame; the dashboard keeps it with the agent and lists it.
/// </summary>
public static class AgentBaseUrl
{
    const int MaxLength = 2000;

    /// <summary>
    /// The agent's base address: <c>Runner:PublicUrl</c> when set, else <c>https://$WEBSITE_HOSTNAME</c> on App Service
    /// (the site's own host name, which a slot has too), else none. Null also for a setting that is not an http(s) address.
    /// </summary>
    public static string? Resolve(string? publicUrl, string? websiteHostname) =>
        !string.IsNullOrWhiteSpace(publicUrl) ? Normalize(publicUrl)
        : !string.IsNullOrWhiteSpace(websiteHostname) ? Normalize("https://" + websiteHostname.Trim())
        : null;

    /// <summary>
    /// An absolute http(s) address with no query or fragment, without its trailing slash (so a path typed after it reads
    /// "base/path"); null for anything else, as the dashboard takes nothing else from a frame.
    /// </summary>
    public static string? Normalize(string? url)
    {
        if (url is null || url.Length > MaxLength) return null;
        if (!Uri.TryCreate(url.Trim(), UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https")) return null;
        if (uri.Query.Length > 0 || uri.Fragment.Length > 0 || uri.UserInfo.Length > 0) return null;
        return uri.GetLeftPart(UriPartial.Path).TrimEnd('/');
    }
}
