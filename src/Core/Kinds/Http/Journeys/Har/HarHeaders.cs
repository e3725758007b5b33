namespace BenchDashboard.Core.Kinds.Http.Journeys.Har;

/// <summary>
/// Which recorded request headers a step keeps. Dropped: what the engine sets itself or that belongs to one
/// connection (HTTP/2 pseudo headers, host, content-length, connection and the other hop-by-hop headers), what
/// the browser adds for itself (user-agent, sec-* hints, priority, purpose), what makes a recorded answer
/// differ from the next one (if-none-match / if-modified-since: a recorded 304 would be a 304 for ever) and
/// tracing ids (traceparent, request-id). accept-encoding goes too: the engine reads bodies as sent, and a
/// journey compares best with the recorded sizes undisturbed by the browser's choice of compression.
/// Kept: everything else, Authorization and Cookie included: they are the user's own, shown marked
/// (<see cref="IsSecret"/>) for review, and a journey often needs them until an extraction replaces them.
/// </summary>
public static class HarHeaders
{
    static readonly HashSet<string> Dropped = new(StringComparer.OrdinalIgnoreCase)
    {
        "host", "content-length", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "accept-encoding", "user-agent", "priority", "purpose", "dnt",
        "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range",
        "traceparent", "tracestate", "baggage", "request-id", "request-context",
    };

    static readonly HashSet<string> Secrets = new(StringComparer.OrdinalIgnoreCase)
    {
        "authorization", "cookie", "proxy-authorization", "x-api-key", "api-key", "ocp-apim-subscription-key", "x-functions-key",
        "x-ms-token-aad-access-token", "x-csrf-token", "x-xsrf-token",
    };

    /// <summary>The credential headers <see cref="IsSecret"/> knows, for the page's script to mark as the user types.</summary>
    public static IEnumerable<string> SecretNames => Secrets.Order(StringComparer.Ordinal);

    /// <summary>Whether a recorded header stays in the step.</summary>
    public static bool IsKept(string name) =>
        !name.StartsWith(':') && !name.StartsWith("sec-", StringComparison.OrdinalIgnoreCase) && !Dropped.Contains(name);

    /// <summary>Whether a header carries a credential: the editor marks it so the reviewer knows what the journey holds.</summary>
    public static bool IsSecret(string name) => Secrets.Contains(name);

    /// <summary>The conditional headers whose absence turns a recorded 304 into a 200.</summary>
    public static bool IsConditional(string name) =>
        name.Equals("if-none-match", StringComparison.OrdinalIgnoreCase) || name.Equals("if-modified-since", StringComparison.OrdinalIgnoreCase);
}
