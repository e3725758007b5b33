using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.WebUtilities;
using Microsoft.Net.Http.Headers;

namespace BenchDashboard.Runner.Tables.Protocol;

/// <summary>
/// Reads the answer to a <c>$batch</c>. The service answers 202 Accepted even when the transaction failed: the
/// real outcome is in the changeset response, one HTTP response per operation when all succeeded, or a single
/// one with the failing status (its message starts with the failing operation's position, "3:…").
/// </summary>
static class BatchResponse
{
    /// <summary>The inner statuses in order, with the error of the first failure (if any).</summary>
    public static async Task<TableOutcome> ReadAsync(string contentType, Stream body, CancellationToken ct)
    {
        var statuses = new List<int>();
        TableOutcome? failure = null;
        await foreach (var (status, text) in PartsAsync(contentType, body, ct))
        {
            statuses.Add(status);
            if (failure is null && status >= 300)
            {
                var error = TableError.Parse(text);
                failure = new TableOutcome(status, error.Code, error.Message, error.FailedIndex, 202);
            }
        }
        if (statuses.Count == 0) return new TableOutcome(202, "EmptyBatchResponse", "The 202 answer held no operation response.", null, 202);
        return failure ?? new TableOutcome(202, null, null, null, 202) { OperationStatuses = statuses };
    }

    static async IAsyncEnumerable<(int Status, string Body)> PartsAsync(
        string contentType, Stream body, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken ct)
    {
        var reader = new MultipartReader(Boundary(contentType), body);
        while (await reader.ReadNextSectionAsync(ct) is { } section)
        {
            // The batch's one part is the changeset: a multipart of its own.
            if (section.ContentType is { } inner && inner.StartsWith("multipart/mixed", StringComparison.OrdinalIgnoreCase))
            {
                await foreach (var part in PartsAsync(inner, section.Body, ct)) yield return part;
                continue;
            }
            using var text = new StreamReader(section.Body, Encoding.UTF8);
            var http = await text.ReadToEndAsync(ct);
            yield return Parse(http);
        }
    }

    /// <summary>"HTTP/1.1 409 Conflict\r\nheaders\r\n\r\nbody" → (409, body).</summary>
    static (int Status, string Body) Parse(string http)
    {
        var lineEnd = http.IndexOf('\n');
        var statusLine = (lineEnd < 0 ? http : http[..lineEnd]).Trim();
        var parts = statusLine.Split(' ', 3);
        if (parts.Length < 2 || !parts[0].StartsWith("HTTP/", StringComparison.Ordinal) || !int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var status))
            throw new FormatException($"A batch response part does not start with an HTTP status line: '{statusLine}'.");
        var bodyStart = http.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        return (status, bodyStart < 0 ? "" : http[(bodyStart + 4)..].Trim());
    }

    static string Boundary(string contentType)
    {
        var boundary = HeaderUtilities.RemoveQuotes(MediaTypeHeaderValue.Parse(contentType).Boundary).Value;
        return string.IsNullOrEmpty(boundary) ? throw new FormatException($"No boundary in '{contentType}'.") : boundary;
    }
}

/// <summary>
/// The service's error body: <c>{"odata.error":{"code":"…","message":{"value":"3:…"}}}</c>, or, for errors
/// raised before the request reaches the table layer (authentication), storage's XML
/// <c>&lt;Error&gt;&lt;Code&gt;…&lt;/Code&gt;&lt;Message&gt;…&lt;/Message&gt;&lt;/Error&gt;</c>.
/// </summary>
readonly record struct TableError(string? Code, string? Message, int? FailedIndex)
{
    public static TableError Parse(string body)
    {
        if (string.IsNullOrWhiteSpace(body)) return default;
        if (body.TrimStart().StartsWith('<')) return ParseXml(body);
        try
        {
            using var document = JsonDocument.Parse(body);
            if (!document.RootElement.TryGetProperty("odata.error", out var error)) return new TableError(null, Shorten(body), null);
            var code = error.TryGetProperty("code", out var c) ? c.GetString() : null;
            var message = error.TryGetProperty("message", out var m) ? m.ValueKind == JsonValueKind.Object && m.TryGetProperty("value", out var v) ? v.GetString() : m.GetString() : null;
            int? index = null;
            if (message is not null && message.IndexOf(':') is var colon and > 0 && int.TryParse(message[..colon], NumberStyles.None, CultureInfo.InvariantCulture, out var i))
            {
                index = i;
                message = message[(colon + 1)..];
            }
            return new TableError(code, Shorten(message), index);
        }
        catch (JsonException)
        {
            return new TableError(null, Shorten(body), null);
        }
    }

    static TableError ParseXml(string body)
    {
        try
        {
            var error = System.Xml.Linq.XElement.Parse(body);
            return new TableError(error.Element("Code")?.Value, Shorten(error.Element("Message")?.Value), null);
        }
        catch (System.Xml.XmlException)
        {
            return new TableError(null, Shorten(body), null);
        }
    }

    /// <summary>The first line (the service appends "RequestId:…" and "Time:…" lines, which differ every time).</summary>
    static string? Shorten(string? message) => message?.Split('\n')[0].Trim();
}
