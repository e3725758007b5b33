using System.Text.Json;
using System.Text.Json.Nodes;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Reads a JSON object from a request body strictly, so that no body can reach the code with a meaning it
/// did not choose, and every refusal names what is wrong: at most <see cref="MaxBytes"/>; valid UTF-8 and
/// JSON (no NaN, no comments) nested at most <see cref="MaxDepth"/> deep; an object at the top; no property
/// twice, also not in another case (<c>"url"</c> and <c>"Url"</c> would otherwise both bind); no text with
/// an unpaired UTF-16 surrogate (<c>"\ud800"</c>), which could be read but never written back.
/// </summary>
public static class ApiJson
{
    public const int MaxBytes = 1024 * 1024;
    public const int MaxDepth = 16;

    /// <summary>The object, or the field errors (and the status: 400, 413 too large, 415 not JSON).</summary>
    public static async Task<(JsonObject? Body, Dictionary<string, string[]> Errors, int Status)> ReadObjectAsync(HttpRequest request, CancellationToken ct)
    {
        // Exactly application/json (a charset may follow): text/plain, or a type that only mentions "+json", is what a
        // page of another site can send without asking first, so it is not read as JSON.
        if (!Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(request.ContentType, out var type)
            || !string.Equals(type.MediaType.Value, "application/json", StringComparison.OrdinalIgnoreCase))
            return (null, Error("body", "Send a JSON object with Content-Type: application/json."), StatusCodes.Status415UnsupportedMediaType);

        var buffer = new MemoryStream();
        var chunk = new byte[16 * 1024];
        int read;
        while ((read = await request.Body.ReadAsync(chunk, ct)) > 0)
        {
            if (buffer.Length + read > MaxBytes)
                return (null, Error("body", $"The body is larger than {MaxBytes / 1024:N0} KiB."), StatusCodes.Status413PayloadTooLarge);
            buffer.Write(chunk, 0, read);
        }

        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(buffer.ToArray(), new JsonDocumentOptions { MaxDepth = MaxDepth });
        }
        catch (JsonException ex)
        {
            var where = ex.LineNumber is { } line ? $" (line {line + 1}, byte {ex.BytePositionInLine + 1})" : "";
            return (null, Error("body", $"Not valid JSON{where}: {FirstSentence(ex.Message)}"), StatusCodes.Status400BadRequest);
        }
        using (document)
        {
            if (document.RootElement.ValueKind != JsonValueKind.Object)
                return (null, Error("body", $"Send a JSON object, not {document.RootElement.ValueKind.ToString().ToLowerInvariant()}."), StatusCodes.Status400BadRequest);
            var errors = new Dictionary<string, string[]>();
            Check(document.RootElement, "", errors);
            if (errors.Count > 0) return (null, errors, StatusCodes.Status400BadRequest);
            return (JsonObject.Create(document.RootElement.Clone()), errors, StatusCodes.Status200OK);
        }
    }

    static void Check(JsonElement element, string path, Dictionary<string, string[]> errors)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object:
                var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
                foreach (var property in element.EnumerateObject())
                {
                    if (Text(() => property.Name) is not { } name)
                    {
                        errors[path.Length == 0 ? "body" : path] = [NotText];
                        continue;
                    }
                    var child = path.Length == 0 ? name : $"{path}.{name}";
                    if (!seen.Add(name)) errors[child] = [$"'{name}' appears more than once (names are matched regardless of case)."];
                    Check(property.Value, child, errors);
                }
                break;
            case JsonValueKind.Array:
                var i = 0;
                foreach (var item in element.EnumerateArray()) Check(item, $"{path}[{i++}]", errors);
                break;
            case JsonValueKind.String when Text(element.GetString) is null:
                errors[path] = [NotText];
                break;
        }
    }

    const string NotText = "Not valid text: it holds an unpaired UTF-16 surrogate (e.g. \\ud800 alone) or bytes that are not UTF-8.";

    /// <summary>The text, or null when it cannot be text: .NET refuses to read an unpaired surrogate or invalid UTF-8.</summary>
    static string? Text(Func<string?> read)
    {
        try
        {
            return read() is { } text && IsWellFormed(text) ? text : null;
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>Every surrogate is half of a pair.</summary>
    static bool IsWellFormed(string text)
    {
        for (var i = 0; i < text.Length; i++)
        {
            if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1])) i++;
            else if (char.IsSurrogate(text[i])) return false;
        }
        return true;
    }

    static string FirstSentence(string message) => message.Split(". ")[0].TrimEnd('.') + ".";

    static Dictionary<string, string[]> Error(string field, string message) => new() { [field] = [message] };
}
