namespace BenchDashboard.Core.Kinds.Http;

/// <summary>
/// A URL that begins with <see cref="Token"/> (<c>{{self}}/target/delay?ms=2</c>) means "the site of the agent that
/// runs it, over loopback": one run "on each" App Service configuration measures every configuration's own
/// <c>/target/</c> from inside it, which no single URL could name. The dashboard stores it as written; each agent
/// puts its own site's address (<c>Runner:SelfUrl</c>) in its place when it takes the run.
/// </summary>
public static class SelfUrl
{
    public const string Token = "{{self}}";

    /// <summary>The address a URL's path and query are put on to check them: no real host, so nothing is looked up.</summary>
    static readonly Uri Placeholder = new("http://127.0.0.1:1");

    public static bool IsSelf(string? url) => url is not null && url.StartsWith(Token, StringComparison.OrdinalIgnoreCase);

    /// <summary>What is wrong with the part after <see cref="Token"/>, or null: it must be a path (and query) that makes a valid URL.</summary>
    public static string? Problem(string url)
    {
        var rest = url[Token.Length..];
        if (rest.Length > 0 && rest[0] != '/')
            return $"After {Token} comes the path on the agent's own site, beginning with '/' (e.g. {Token}/target/delay?ms=2).";
        if (rest.Any(c => c <= ' ' || c is '\\' or '#' || c > '~'))
            return $"After {Token} comes a plain path and query: visible ASCII, no '\\', no '#'.";
        // "//host/..." would be read as another host: the path must stay on the agent's own site.
        return Uri.TryCreate(Placeholder, rest, out var joined) && joined.Authority == Placeholder.Authority && !rest.StartsWith("//", StringComparison.Ordinal)
            ? null : $"'{rest}' is not a path on the agent's own site.";
    }

    /// <summary>The URL with <see cref="Token"/> replaced by <paramref name="site"/> (its path, if any, kept in front); other URLs unchanged.</summary>
    public static string Resolve(string url, Uri site) =>
        IsSelf(url) ? site.GetLeftPart(UriPartial.Path).TrimEnd('/') + url[Token.Length..] : url;

    /// <summary>The run's URL and its variants' with <see cref="Resolve"/> applied.</summary>
    public static HttpParameters Resolve(HttpParameters p, Uri site) => p with
    {
        Url = Resolve(p.Url, site),
        Variants = p.Variants?.Select(v => v?.Url is { } url ? v with { Url = Resolve(url, site) } : v!).ToList(),
    };

    /// <summary>Whether the run or any variant names <see cref="Token"/>.</summary>
    public static bool Uses(HttpParameters p) => IsSelf(p.Url) || (p.Variants ?? []).Any(v => IsSelf(v?.Url));

    /// <summary>
    /// The process's own site over loopback: <paramref name="configured"/> (<c>Runner:SelfUrl</c>) when set, else the
    /// first of <paramref name="urls"/> (ASPNETCORE_URLS), else <c>http://127.0.0.1:PORT</c> (App Service), in the
    /// order the web host chooses what to listen on; the host made 127.0.0.1 (a site listening on every interface, or
    /// on localhost, answers there). Null when none says.
    /// </summary>
    public static Uri? SiteAddress(string? configured, string? port, string? urls)
    {
        if (!string.IsNullOrWhiteSpace(configured))
            return !Uri.TryCreate(configured.Trim(), UriKind.Absolute, out var given) || given.Scheme is not ("http" or "https") ? null
                : given.IsLoopback && given.HostNameType == UriHostNameType.Dns ? new UriBuilder(given) { Host = "127.0.0.1" }.Uri : given; // localhost: the address it answers on
        var first = urls?.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault();
        if (first is null)
            return int.TryParse(port, out var p) && p is > 0 and <= 65535 ? new Uri($"http://127.0.0.1:{p}") : null;
        // "+" and "*" are Kestrel's "every interface"; Uri does not take them as hosts.
        var parsable = first.Replace("://+", "://any", StringComparison.Ordinal).Replace("://*", "://any", StringComparison.Ordinal);
        if (!Uri.TryCreate(parsable, UriKind.Absolute, out var listen) || listen.Scheme is not ("http" or "https") || listen.Port is < 1 or > 65535) return null;
        return new UriBuilder(listen.Scheme, "127.0.0.1", listen.Port).Uri;
    }
}
