using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Reads one benchmark definition from JSON, strictly: a field it does not know, a value of the wrong type or a
/// kind that does not exist is an error naming the field ("parameters.concurrency", "thresholds.maxP999Ms"),
/// never ignored. The parameters are read as <c>POST /api/runs</c> reads them, by the kind.
/// </summary>
public static partial class BenchmarkBody
{
    public static readonly string[] Fields = ["name", "kind", "parameters", "schedule", "timeZone", "enabled", "thresholds", "agents", "onEach", "rounds", "webhooks"];

    static readonly JsonSerializerOptions StrictJson = new(Json.Options) { UnmappedMemberHandling = System.Text.Json.Serialization.JsonUnmappedMemberHandling.Disallow };

    /// <param name="id">The id the address names (PUT), which a body may repeat; null where a body has no id (POST, a file).</param>
    public static BenchmarkInput? Read(JsonObject body, BenchmarkKinds kinds, Dictionary<string, string[]> errors, int? id = null)
    {
        foreach (var (field, _) in body)
            if (!Fields.Contains(field, StringComparer.OrdinalIgnoreCase) && !(id is not null && field.Equals("id", StringComparison.OrdinalIgnoreCase)))
                errors[field] = [$"Unknown field '{field}': a benchmark has {string.Join(", ", Fields)}."];
        if (Get(body, "id") is { } givenId && !(givenId.GetValueKind() == JsonValueKind.Number && givenId.AsValue().TryGetValue(out int n) && n == id))
            errors["id"] = [$"The id is the address's ({id}); leave it out or repeat it."];

        var name = Text(body, "name", errors);
        var schedule = Text(body, "schedule", errors);
        var timeZone = Text(body, "timeZone", errors);
        var enabled = true;
        if (Get(body, "enabled") is { } on)
        {
            if (on.GetValueKind() is JsonValueKind.True or JsonValueKind.False) enabled = on.GetValue<bool>();
            else errors["enabled"] = ["enabled is true or false."];
        }
        int? agents = null;
        if (Get(body, "agents") is { } a)
        {
            if (a.GetValueKind() == JsonValueKind.Number && a.AsValue().TryGetValue(out int count)) agents = count;
            else errors["agents"] = ["agents is a whole number of runner agents to spread its runs over."];
        }
        var onEach = OnEachRequest.Read(field => Get(body, field), errors);
        List<string>? webhooks = null;
        if (Get(body, "webhooks") is { } hooks)
        {
            if (hooks is JsonArray urls && urls.All(u => u?.GetValueKind() == JsonValueKind.String)) webhooks = urls.Select(u => u!.GetValue<string>()).ToList();
            else errors["webhooks"] = ["webhooks is a list of URLs (text), or null for none."];
        }
        Thresholds? thresholds = null;
        if (Get(body, "thresholds") is { } limits)
        {
            if (limits is JsonObject) thresholds = Deserialize(() => JsonSerializer.Deserialize<Thresholds>(limits.ToJsonString(), StrictJson), "thresholds", errors);
            else errors["thresholds"] = ["Give the thresholds as an object (maxMedianMs, maxP95Ms, maxP99Ms, maxErrorPercent, minRequestsPerSecond, latency, changeMarginPercent, confirmRuns) or null."];
        }

        var kindName = Get(body, "kind") is { } k && k.GetValueKind() == JsonValueKind.String ? k.GetValue<string>() : null;
        var kind = kinds.Find(kindName);
        if (kind is null) errors["kind"] = [$"Supported kinds: {string.Join(", ", kinds.All.Select(x => $"\"{x.Name}\""))}."];
        object? parameters = null;
        if (Get(body, "parameters") is not JsonObject given)
            errors["parameters"] = ["Give the kind's parameters as an object, as in POST /api/runs without \"kind\"."];
        else if (kind is not null)
            parameters = Deserialize(() => kind.Deserialize(given.ToJsonString(), StrictJson), "parameters", errors);

        return errors.Count == 0 ? new BenchmarkInput(name, parameters!, schedule, timeZone, enabled, thresholds, agents, webhooks, onEach) : null;
    }

    /// <summary>The value of a field, its name matched regardless of case (as the parameters' are); null when absent or null.</summary>
    static JsonNode? Get(JsonObject body, string field) =>
        body.FirstOrDefault(p => p.Key.Equals(field, StringComparison.OrdinalIgnoreCase)).Value;

    static string? Text(JsonObject body, string field, Dictionary<string, string[]> errors)
    {
        if (Get(body, field) is not { } node) return null;
        if (node.GetValueKind() == JsonValueKind.String) return node.GetValue<string>();
        errors[field] = [$"{field} is text or null."];
        return null;
    }

    static T? Deserialize<T>(Func<T?> read, string prefix, Dictionary<string, string[]> errors) where T : class
    {
        try
        {
            return read();
        }
        catch (JsonException ex)
        {
            // Said without .NET's type names: "could not be mapped to any .NET member contained in type …".
            var message = UnmappedField().Match(ex.Message) is { Success: true } unmapped ? $"Unknown field '{unmapped.Groups[1].Value}'." : ex.Message;
            errors[$"{prefix}.{FieldOf(ex)}".TrimEnd('.')] = [message];
            return null;
        }
    }

    /// <summary>Where the reader stopped ("requests", "stages[1].rate"); for a field no record has, the field itself.</summary>
    static string FieldOf(JsonException ex)
    {
        var path = ex.Path?.TrimStart('$').TrimStart('.') ?? "";
        if (UnmappedField().Match(ex.Message) is { Success: true } unmapped && !path.EndsWith(unmapped.Groups[1].Value, StringComparison.Ordinal))
            path = path.Length == 0 ? unmapped.Groups[1].Value : $"{path}.{unmapped.Groups[1].Value}";
        return path;
    }

    [GeneratedRegex("^The JSON property '([^']*)' could not be mapped")]
    private static partial Regex UnmappedField();
}
