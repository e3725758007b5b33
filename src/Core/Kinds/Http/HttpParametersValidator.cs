using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Core.Kinds.Http;

/// <summary>
/// Checks HTTP parameters against <see cref="RunLimits"/> and the size caps below (a body, a header, the
/// URL are stored with every run and shown on every list). Errors are keyed by the API's field name so the
/// API can return them as a validation problem and the form can show each beside its field.
/// </summary>
public static class HttpParametersValidator
{
    static readonly HashSet<string> Methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

    /// <summary>Headers that frame the request on the wire: set by the client from the URL and body, never by a benchmark.</summary>
    static readonly HashSet<string> FramingHeaders = new(StringComparer.OrdinalIgnoreCase) { "Host", "Content-Length", "Transfer-Encoding", "Connection", "Upgrade", "TE", "Trailer", "Keep-Alive", "Proxy-Connection" };

    public const int MaxUrlLength = 2048;
    public const int MaxHeaders = 64;
    public const int MaxHeaderNameLength = 256;
    public const int MaxHeaderValueLength = 8 * 1024;
    public const int MaxBodyLength = 64 * 1024;

    public static Dictionary<string, string[]> Validate(HttpParameters p, RunLimits limits)
    {
        var errors = new Dictionary<string, List<string>>();
        void Add(string field, string message)
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        }

        if (p.Steps is not null)
        {
            // A journey's requests are its steps': the one request's fields would be ignored, so they must stay unset.
            if (!string.IsNullOrEmpty(p.Url)) Add("url", "A journey's URLs are its steps'; leave url out.");
            if (p.Body is not null) Add("body", "A journey's bodies are its steps'; leave body out.");
            if (p.Headers is { Count: > 0 }) Add("headers", "A journey's headers are its steps'; leave headers out.");
            if (p.Method is not "GET") Add("method", "A journey's methods are its steps'; leave method out.");
            JourneyValidator.Validate(p.Steps, Add);
        }
        else if (p.Url is null || p.Url.Length > MaxUrlLength)
            Add("url", $"Enter a URL of at most {MaxUrlLength:N0} characters.");
        else if (SelfUrl.IsSelf(p.Url))
        {
            // The agent's own site (SelfUrl): only the path and query are the dashboard's to check.
            if (SelfUrl.Problem(p.Url) is { } problem) Add("url", problem);
        }
        else if (!Uri.TryCreate(p.Url, UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
            Add("url", "Enter an absolute http:// or https:// URL.");
        else if (uri.Port is < 1 or > 65535)
            Add("url", "The port must be between 1 and 65535.");
        if (p.Steps is null) ValidateRequest(p.Method, p.Body, p.Headers, "", Add);

        LoadFieldsValidator.Validate(p, limits, new LoadCounting("requests", Variants: p.Variants?.Count ?? 1), Add);
        ValidateVariants(p, limits, Add);
        foreach (var (variant, i) in (p.Variants ?? []).Select((v, i) => (v, i)))
            if (variant?.Steps is not null && p.Steps is null)
                Add($"variants[{i}].steps", "A run is a journey in all its variants or in none: give the run steps too.");
        // HTTP's own rule on a shared field: variants that cannot share a worker's connection open their own.
        if (p.Concurrency >= 1 && p.Concurrency <= limits.MaxConcurrency && p.ConnectionsPerWorker() is > 1 and var each && p.Concurrency * each > limits.MaxConcurrency)
            Add("concurrency", $"The variants need {each} connections per worker (another host, timeout or keep-alive each): {p.Concurrency * each:N0} in all, at most {limits.MaxConcurrency:N0} (RunLimits:MaxConcurrency).");

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray());
    }

    /// <summary>A request's method, body and headers, keyed under <paramref name="prefix"/> (a journey step's "steps[2].").</summary>
    internal static void ValidateRequest(string? method, string? body, Dictionary<string, string>? requestHeaders, string prefix, Action<string, string> Add)
    {
        if (method is null || !Methods.Contains(method))
            Add(prefix + "method", $"Method must be one of {string.Join(", ", Methods)}.");
        if (body is not null && method is "GET" or "HEAD")
            Add(prefix + "body", "A GET or HEAD request cannot carry a body.");
        if (body is { Length: > MaxBodyLength })
            Add(prefix + "body", $"A body can be at most {MaxBodyLength / 1024:N0} KiB (it is stored with every run).");
        if (requestHeaders is null) { if (prefix == "") Add("headers", "Headers must be an object of names and values, or left out; not null."); }
        else if (requestHeaders.Count > MaxHeaders) Add(prefix + "headers", $"At most {MaxHeaders} headers.");
        foreach (var (name, value) in requestHeaders is { Count: <= MaxHeaders } headers ? headers : [])
            if (string.IsNullOrWhiteSpace(name) || name.Length > MaxHeaderNameLength || name.Any(c => c <= ' ' || c == ':' || c > '~'))
                Add(prefix + "headers", $"'{Shown(name)}' is not a valid header name (visible ASCII without ':', at most {MaxHeaderNameLength} characters).");
            else if (FramingHeaders.Contains(name))
                // Host: the target policy judges the URL's host, and a Host header would send the request to another
                // site behind the same address (a slot's SCM site). The others frame the request: set from the URL,
                // body and keepAlive, or a request could be smuggled inside another.
                Add(prefix + "headers", name.Equals("Host", StringComparison.OrdinalIgnoreCase)
                    ? "The Host header comes from the URL; put the host name there."
                    : $"The {name} header is set by the client (from the URL, the body and keep-alive), not by a benchmark.");
            else if (value is null || value.Length > MaxHeaderValueLength)
                Add(prefix + "headers", $"The value of '{name}' must be text of at most {MaxHeaderValueLength:N0} characters.");
            else if (value.Any(c => c is '\r' or '\n' or '\0'))
                // A line break would end the header and start another, or another request: header injection.
                Add(prefix + "headers", $"The value of '{name}' contains a line break or NUL; a header value is one line.");

    }

    /// <summary>
    /// Variants (<see cref="VariantRules"/>), and each variant's own fields valid as a run's would be (keyed "variants[1].url").
    /// </summary>
    static void ValidateVariants(HttpParameters p, RunLimits limits, Action<string, string> add) =>
        VariantRules.Validate(p.Variants, p.InterleaveBlock, v => v.Name, add, (variant, field) =>
        {
            var own = Validate(variant.Over(p), limits);
            foreach (var changed in variant.SetFields())
                foreach (var (key, messages) in own.Where(e => e.Key == changed || e.Key.StartsWith(changed + "[", StringComparison.Ordinal)))
                    foreach (var message in messages)
                        add($"{field}.{key}", message);
        });

    /// <summary>A name as a message may quote it: not too long, no control characters.</summary>
    static string Shown(string? name) =>
        name is null ? "" : new string(name.Take(40).Select(c => char.IsControl(c) ? '?' : c).ToArray()) + (name.Length > 40 ? "…" : "");
}
