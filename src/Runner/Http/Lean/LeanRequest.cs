using System.Text;
using BenchDashboard.Core.Kinds.Http;

namespace BenchDashboard.Runner.Http.Lean;

/// <summary>
/// One variant's request as the bytes the lean engine sends, built once: request line, Host, the user's
/// headers, Content-Length when there is content, Connection: close without keep-alive, then the body.
/// </summary>
public sealed class LeanRequest
{
    /// <summary>Headers the engine frames the exchange with: a request that sets one itself goes to SocketsHttpHandler.</summary>
    static readonly HashSet<string> FramingHeaders = new(StringComparer.OrdinalIgnoreCase)
    {
        "Host", "Content-Length", "Transfer-Encoding", "Connection", "Expect", "Upgrade", "TE", "Keep-Alive", "Proxy-Connection",
    };

    static readonly HashSet<string> MethodsWithContent = new(StringComparer.OrdinalIgnoreCase) { "POST", "PUT", "PATCH" };

    public LeanRequest(HttpParameters parameters)
    {
        HeaderLines.RefuseLineBreaks(parameters);
        var uri = new Uri(parameters.Url);
        Host = uri.DnsSafeHost;
        Port = uri.Port;
        IsHttps = uri.Scheme == Uri.UriSchemeHttps;
        IsHead = string.Equals(parameters.Method, "HEAD", StringComparison.OrdinalIgnoreCase);
        AsksClose = !parameters.KeepAlive;
        var body = parameters.Body is null ? null : Encoding.UTF8.GetBytes(parameters.Body);
        var head = new StringBuilder()
            .Append(parameters.Method).Append(' ').Append(uri.PathAndQuery).Append(" HTTP/1.1\r\n")
            .Append("Host: ").Append(uri.IsDefaultPort ? uri.IdnHost : $"{uri.IdnHost}:{uri.Port}").Append("\r\n");
        foreach (var (name, value) in parameters.Headers) head.Append(name).Append(": ").Append(value).Append("\r\n");
        // As SocketsHttpHandler: a length whenever there is content, and an empty one for methods that expect content.
        if (body is not null || MethodsWithContent.Contains(parameters.Method) || parameters.Headers.Keys.Any(IsContentHeader))
            head.Append("Content-Length: ").Append(body?.Length ?? 0).Append("\r\n");
        if (!parameters.KeepAlive) head.Append("Connection: close\r\n");
        head.Append("\r\n");
        Bytes = [.. Encoding.Latin1.GetBytes(head.ToString()), .. body ?? []];
    }

    /// <summary>Whether the lean engine can send this run's requests: http:// or https:// and no framing header set by the user.</summary>
    public static bool Speaks(HttpParameters parameters) =>
        Uri.TryCreate(parameters.Url, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps)
        && !parameters.Headers.Keys.Any(FramingHeaders.Contains);

    /// <summary>The name to resolve (an IP literal needs none) and the port to connect to.</summary>
    public string Host { get; }

    public int Port { get; }

    /// <summary>Sent over TLS, the server's certificate checked for <see cref="Host"/>.</summary>
    public bool IsHttps { get; }

    /// <summary>The answer to a HEAD request has no body, whatever length it announces.</summary>
    public bool IsHead { get; }

    /// <summary>It says Connection: close, after which no other request may follow on its connection, whatever the server does.</summary>
    public bool AsksClose { get; }

    public byte[] Bytes { get; }

    static bool IsContentHeader(string name) => name.StartsWith("Content-", StringComparison.OrdinalIgnoreCase);
}
