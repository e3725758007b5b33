using System.Text.Json;

namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// The JSON paths a journey needs, over System.Text.Json: <c>$</c>, <c>.name</c>, <c>['name']</c> and <c>[index]</c>
/// (negative from the end). No library for it is served here (JsonPath.Net is not), and filters and wildcards
/// would answer with several values where a step wants one.
/// </summary>
public sealed class JsonPath
{
    readonly object[] segments; // string: a property; int: an index

    JsonPath(string text, object[] segments) => (Text, this.segments) = (text, segments);

    public string Text { get; }

    public const int MaxLength = 256;

    /// <summary>The path, or null with <paramref name="error"/> saying what is wrong.</summary>
    public static JsonPath? TryParse(string? text, out string? error)
    {
        error = null;
        if (string.IsNullOrEmpty(text) || text.Length > MaxLength || text[0] != '$')
        {
            error = $"A JSON path starts with '$' and has at most {MaxLength} characters ($.items[0].id).";
            return null;
        }
        var segments = new List<object>();
        var i = 1;
        while (i < text.Length)
        {
            if (text[i] == '.')
            {
                var start = ++i;
                while (i < text.Length && text[i] is not ('.' or '[')) i++;
                if (i == start) { error = $"An empty name at {start} in '{text}'."; return null; }
                segments.Add(text[start..i]);
            }
            else if (text[i] == '[')
            {
                var close = text.IndexOf(']', i);
                if (close < 0) { error = $"An unclosed '[' in '{text}'."; return null; }
                var inside = text[(i + 1)..close];
                if (inside.Length >= 2 && inside[0] is '\'' or '"' && inside[^1] == inside[0]) segments.Add(inside[1..^1]);
                else if (int.TryParse(inside, System.Globalization.NumberStyles.AllowLeadingSign, System.Globalization.CultureInfo.InvariantCulture, out var index)) segments.Add(index);
                else { error = $"'[{inside}]' in '{text}' is neither an index nor a quoted name (no filters or wildcards)."; return null; }
                i = close + 1;
            }
            else { error = $"Unexpected '{text[i]}' at {i} in '{text}'."; return null; }
        }
        return new JsonPath(text, [.. segments]);
    }

    /// <summary>The element at the path, or null when a property or index is missing.</summary>
    public JsonElement? Find(JsonElement root)
    {
        var at = root;
        foreach (var segment in segments)
        {
            if (segment is string name)
            {
                if (at.ValueKind != JsonValueKind.Object || !at.TryGetProperty(name, out at)) return null;
            }
            else
            {
                var index = (int)segment;
                if (at.ValueKind != JsonValueKind.Array) return null;
                var length = at.GetArrayLength();
                if (index < 0) index += length;
                if (index < 0 || index >= length) return null;
                at = at[index];
            }
        }
        return at;
    }

    /// <summary>A value as a variable holds it: a string's text, any other value's JSON.</summary>
    public static string ValueText(JsonElement element) =>
        element.ValueKind == JsonValueKind.String ? element.GetString()! : element.GetRawText();
}
