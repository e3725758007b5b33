using System.Text.Json;

namespace BenchDashboard.Cli;

/// <summary>Lenient reads of the dashboard's answers: a field that is missing or null reads as null.</summary>
static class JsonFields
{
    public static JsonElement? Field(this JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind != JsonValueKind.Null ? value : null;

    /// <summary>The text as a terminal can print it (<see cref="Core.Runs.Text.RunText.Printable"/>): what the dashboard answers is printed.</summary>
    public static string? String(this JsonElement element, string name) =>
        element.Field(name) is { } v ? Core.Runs.Text.RunText.Printable(v.ValueKind == JsonValueKind.String ? v.GetString()! : v.GetRawText()) : null;

    public static double? Number(this JsonElement element, string name) =>
        element.Field(name) is { ValueKind: JsonValueKind.Number } v ? v.GetDouble() : null;

    public static long? Integer(this JsonElement element, string name) =>
        element.Field(name) is { ValueKind: JsonValueKind.Number } v && v.TryGetInt64(out var n) ? n : null;

    public static bool? Boolean(this JsonElement element, string name) =>
        element.Field(name) is { ValueKind: JsonValueKind.True or JsonValueKind.False } v ? v.GetBoolean() : null;

    public static IEnumerable<JsonElement> Items(this JsonElement element, string name) =>
        element.Field(name) is { ValueKind: JsonValueKind.Array } v ? v.EnumerateArray() : [];
}
