using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BenchDashboard.Core.Kinds.Http.Journeys.Har;

/// <summary>A request of the file left out of the journey, and why; <see cref="Entry"/> is its index in <c>log.entries</c>.</summary>
public sealed record HarSkipped(int Entry, string Method, string Url, string Reason);

/// <summary>The steps a HAR file gives, for review before they are saved, and what was left out.</summary>
public sealed record HarJourney(List<HttpStep> Steps, List<HarSkipped> Skipped);

/// <summary>
/// A browser's saved session (HAR 1.2) as a journey's steps: the requests in the order they started, static assets
/// left out unless asked for (<see cref="StaticAssets"/>), volatile headers dropped (<see cref="HarHeaders"/>), the
/// body from <c>postData</c>, each step named by its method and its path's last segment and checking the recorded
/// status. Only converts: nothing is stored. A file that is not HAR is refused field by field
/// (<c>log.entries[3].request.url</c>); a request the journey cannot use is skipped with its reason.
/// </summary>
public static class HarImport
{
    public const int MaxBytes = 10 * 1024 * 1024;

    /// <summary>The URL as shown in <see cref="HarSkipped"/>: a data: URL can be megabytes.</summary>
    const int ShownUrlLength = 200;

    public static HarJourney? Convert(ReadOnlyMemory<byte> har, bool keepStatic, Action<string, string> error)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(har, new JsonDocumentOptions { MaxDepth = 64 });
        }
        catch (JsonException ex)
        {
            error("body", $"Not a HAR file: not valid JSON (line {ex.LineNumber + 1}).");
            return null;
        }
        using (document)
        {
            var entries = Entries(document.RootElement, error);
            if (entries is null) return null;
            var recorded = new List<Recorded>();
            var valid = true;
            for (var i = 0; i < entries.Value.GetArrayLength(); i++)
                if (Read(entries.Value[i], i, error) is { } entry) recorded.Add(entry);
                else valid = false;
            return valid ? ToJourney(recorded, keepStatic) : null;
        }
    }

    static JsonElement? Entries(JsonElement root, Action<string, string> error)
    {
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("log", out var log) || log.ValueKind != JsonValueKind.Object)
        {
            error("log", "Not a HAR file: it has no \"log\" object (save it from the browser's network panel as HAR).");
            return null;
        }
        if (!log.TryGetProperty("entries", out var entries) || entries.ValueKind != JsonValueKind.Array)
        {
            error("log.entries", "A HAR file's log has a list of entries.");
            return null;
        }
        return entries;
    }

    /// <summary>One entry as the conversion needs it.</summary>
    sealed record Recorded(int Index, DateTimeOffset Started, string Method, Uri Url, List<(string Name, string Value)> Headers,
        string? Body, string? BodyType, int Status, string? MimeType);

    static Recorded? Read(JsonElement entry, int i, Action<string, string> error)
    {
        var at = $"log.entries[{i}]";
        if (entry.ValueKind != JsonValueKind.Object) { error(at, "An entry is an object."); return null; }
        var ok = true;
        void Fail(string field, string message) { error($"{at}.{field}", message); ok = false; }

        var started = DateTimeOffset.MinValue;
        if (!entry.TryGetProperty("startedDateTime", out var time) || time.ValueKind != JsonValueKind.String
            || !DateTimeOffset.TryParse(time.GetString(), CultureInfo.InvariantCulture, DateTimeStyles.None, out started))
            Fail("startedDateTime", "When the request started, as an ISO 8601 date and time.");

        if (!entry.TryGetProperty("request", out var request) || request.ValueKind != JsonValueKind.Object)
        {
            Fail("request", "An entry has a request object.");
            return null;
        }
        var method = Text(request, "method");
        if (method is null || method.Length == 0 || method.Any(c => c <= ' ' || c > '~' || "()<>@,;:\\\"/[]?={}".Contains(c)))
            Fail("request.method", "The request's method, a word such as GET or POST.");
        Uri? url = null;
        // A scheme first: on Linux "/orders" would otherwise read as the file:///orders.
        if (Text(request, "url") is not { Length: > 0 } text || !char.IsAsciiLetter(text[0]) || !Uri.TryCreate(text, UriKind.Absolute, out url))
            Fail("request.url", "The request's absolute URL.");

        var headers = new List<(string, string)>();
        if (request.TryGetProperty("headers", out var list))
        {
            if (list.ValueKind != JsonValueKind.Array) Fail("request.headers", "A list of {\"name\", \"value\"}.");
            else
                for (var h = 0; h < list.GetArrayLength(); h++)
                    if (list[h].ValueKind == JsonValueKind.Object && Text(list[h], "name") is { Length: > 0 } name && Text(list[h], "value") is { } value)
                        headers.Add((name, value));
                    else Fail($"request.headers[{h}]", "A header is {\"name\": text, \"value\": text}.");
        }

        string? body = null, bodyType = null;
        if (request.TryGetProperty("postData", out var post) && post.ValueKind != JsonValueKind.Null)
        {
            if (post.ValueKind != JsonValueKind.Object) Fail("request.postData", "The request's body, an object with \"text\".");
            else
            {
                bodyType = Text(post, "mimeType");
                body = Text(post, "text");
                if (body is null && post.TryGetProperty("params", out var parameters) && parameters.ValueKind == JsonValueKind.Array)
                    body = string.Join("&", parameters.EnumerateArray().Where(p => p.ValueKind == JsonValueKind.Object)
                        .Select(p => $"{Uri.EscapeDataString(Text(p, "name") ?? "")}={Uri.EscapeDataString(Text(p, "value") ?? "")}"));
            }
        }

        // A request without an answer (blocked, cancelled) is recorded with status 0 or without a response.
        var status = 0;
        string? mimeType = null;
        if (entry.TryGetProperty("response", out var response) && response.ValueKind == JsonValueKind.Object)
        {
            if (response.TryGetProperty("status", out var code) && code.ValueKind != JsonValueKind.Null && (code.ValueKind != JsonValueKind.Number || !code.TryGetInt32(out status)))
                Fail("response.status", "The answer's status, a number.");
            if (response.TryGetProperty("content", out var content) && content.ValueKind == JsonValueKind.Object) mimeType = Text(content, "mimeType");
        }
        return ok ? new Recorded(i, started, method!.ToUpperInvariant(), url!, headers, string.IsNullOrEmpty(body) ? null : body, bodyType, status, mimeType) : null;
    }

    static string? Text(JsonElement element, string property) =>
        element.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;

    static HarJourney ToJourney(List<Recorded> recorded, bool keepStatic)
    {
        var steps = new List<HttpStep>();
        var skipped = new List<HarSkipped>();
        var names = new HashSet<string>(StringComparer.Ordinal);
        // OrderBy is stable: requests that started in the same millisecond keep the file's order.
        foreach (var entry in recorded.OrderBy(e => e.Started))
        {
            var reason = SkipReason(entry, keepStatic);
            if (reason is null && steps.Count == JourneyValidator.MaxSteps)
                reason = $"beyond the {JourneyValidator.MaxSteps} steps a journey may have";
            if (reason is not null)
            {
                var url = entry.Url.OriginalString;
                skipped.Add(new HarSkipped(entry.Index, entry.Method, url.Length > ShownUrlLength ? url[..ShownUrlLength] + "…" : url, reason));
                continue;
            }
            steps.Add(ToStep(entry, UniqueName(entry, names)));
        }
        return new HarJourney(steps, skipped);
    }

    static string? SkipReason(Recorded entry, bool keepStatic)
    {
        if (entry.Url.Scheme != Uri.UriSchemeHttp && entry.Url.Scheme != Uri.UriSchemeHttps) return $"not an HTTP request ({entry.Url.Scheme}:)";
        if (entry.Method == "OPTIONS" && entry.Headers.Any(h => h.Name.Equals("access-control-request-method", StringComparison.OrdinalIgnoreCase)))
            return "a CORS preflight, which the browser sends by itself";
        if (!keepStatic && StaticAssets.KindOf(entry.MimeType, entry.Url) is { } asset) return $"a static asset ({asset})";
        if (entry.Status is < 100 or > 599) return "no answer was recorded (blocked or cancelled)";
        if (entry.Body is { Length: > HttpParametersValidator.MaxBodyLength }) return $"its body is larger than the {HttpParametersValidator.MaxBodyLength / 1024} KiB a step may send";
        return null;
    }

    static HttpStep ToStep(Recorded entry, string name)
    {
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var (header, value) in entry.Headers.Where(h => HarHeaders.IsKept(h.Name)))
            // HTTP/2 records a cookie per crumb; other repeated headers are one list.
            headers[header] = headers.TryGetValue(header, out var before) ? before + (header.Equals("cookie", StringComparison.OrdinalIgnoreCase) ? "; " : ", ") + value : value;
        if (entry.Body is not null && entry.BodyType is { Length: > 0 } type && !headers.ContainsKey("content-type")) headers["Content-Type"] = type;

        // Without its conditional headers the request is answered in full, not "not modified".
        var status = entry.Status == 304 && entry.Headers.Any(h => HarHeaders.IsConditional(h.Name)) ? 200 : entry.Status;
        return new HttpStep
        {
            Name = name,
            Method = entry.Method,
            Url = entry.Url.OriginalString,
            Headers = headers.Count > 0 ? headers : null,
            Body = entry.Body,
            Checks = [new HttpCheck { Status = status }],
        };
    }

    /// <summary>"POST signin", "GET orders", "GET orders 2"; a path without segments is named by its host.</summary>
    static string UniqueName(Recorded entry, HashSet<string> taken)
    {
        var segment = entry.Url.Segments.Select(s => s.Trim('/')).LastOrDefault(s => s.Length > 0) is { } last ? Uri.UnescapeDataString(last) : entry.Url.Host;
        var clean = new StringBuilder();
        foreach (var c in $"{entry.Method} {segment}") if (!char.IsControl(c) && c != '/') clean.Append(c);
        var name = Cut(clean.ToString().Trim(), JourneyValidator.MaxNameLength);
        for (var n = 2; !taken.Add(name); n++)
        {
            var suffix = $" {n}";
            name = Cut(clean.ToString().Trim(), JourneyValidator.MaxNameLength - suffix.Length) + suffix;
        }
        return name;
    }

    /// <summary>At most <paramref name="length"/> characters, never half of a surrogate pair (an emoji in a path).</summary>
    static string Cut(string text, int length) =>
        text.Length <= length ? text : text[..(char.IsHighSurrogate(text[length - 1]) ? length - 1 : length)].TrimEnd();
}
