namespace BenchDashboard.Core.Benchmarks.Http;

/// <summary>
/// Checks HTTP parameters against <see cref="RunLimits"/>. Errors are keyed by the API's field name so the
/// API can return them as a validation problem and the form can show each beside its field.
/// </summary>
public static class HttpParametersValidator
{
    static readonly HashSet<string> Methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

    public static Dictionary<string, string[]> Validate(HttpParameters p, RunLimits limits)
    {
        var errors = new Dictionary<string, List<string>>();
        void Add(string field, string message)
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        }

        if (!Uri.TryCreate(p.Url, UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps))
            Add("url", "Enter an absolute http:// or https:// URL.");
        if (!Methods.Contains(p.Method))
            Add("method", $"Method must be one of {string.Join(", ", Methods)}.");
        if (p.Body is not null && p.Method is "GET" or "HEAD")
            Add("body", "A GET or HEAD request cannot carry a body.");
        if (p.Headers is null) Add("headers", "Headers must be an object of names and values, or left out; not null.");
        foreach (var name in p.Headers?.Keys ?? Enumerable.Empty<string>())
            if (string.IsNullOrWhiteSpace(name) || name.Any(c => c <= ' ' || c == ':' || c > '~'))
                Add("headers", $"'{name}' is not a valid header name.");
            else if (name.Equals("Host", StringComparison.OrdinalIgnoreCase))
                // The target policy judges the URL's host; a Host header would send the request to another
                // site behind the same address (e.g. a slot's SCM site through the shared front end).
                Add("headers", "The Host header comes from the URL; put the host name there.");

        if (p.Requests is null == p.DurationSeconds is null)
            Add("requests", "Set either a request count or a duration, not both.");
        if (p.Requests is { } n && (n < 1 || n > limits.MaxRequests))
            Add("requests", $"Requests must be between 1 and {limits.MaxRequests:N0} (RunLimits:MaxRequests).");
        if (p.DurationSeconds is { } d && (d < 1 || d > limits.MaxDurationSeconds))
            Add("durationSeconds", $"Duration must be between 1 and {limits.MaxDurationSeconds:N0} seconds (RunLimits:MaxDurationSeconds).");
        if (p.Concurrency < 1 || p.Concurrency > limits.MaxConcurrency)
            Add("concurrency", $"Concurrency must be between 1 and {limits.MaxConcurrency:N0} (RunLimits:MaxConcurrency).");
        if (p.Requests is { } r && p.Concurrency > r)
            Add("concurrency", "Concurrency cannot exceed the request count.");
        if (p.TimeoutMs < 1 || p.TimeoutMs > limits.MaxTimeoutMs)
            Add("timeoutMs", $"Timeout must be between 1 and {limits.MaxTimeoutMs:N0} ms (RunLimits:MaxTimeoutMs).");
        if (p.WarmupRequests < 0 || p.WarmupRequests > limits.MaxWarmupRequests)
            Add("warmupRequests", $"Warm-up requests must be between 0 and {limits.MaxWarmupRequests:N0} (RunLimits:MaxWarmupRequests).");

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray());
    }
}
