using System.Text.Json;
using System.Text.Json.Serialization;

namespace BenchDashboard.Core;

/// <summary>The JSON settings for everything stored as JSON (parameters, environment): camelCase, enums by name, numbers strictly.</summary>
public static class Json
{
    public static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web)
    {
        // Numbers are numbers: "requests":"5" and "rate":"NaN" are refused, not read from the text (the web default).
        NumberHandling = JsonNumberHandling.Strict,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
    };

    public static string Serialize<T>(T value) => JsonSerializer.Serialize(value, Options);
    public static T Deserialize<T>(string json) => JsonSerializer.Deserialize<T>(json, Options)
        ?? throw new JsonException($"Expected a {typeof(T).Name}, got null.");
}
