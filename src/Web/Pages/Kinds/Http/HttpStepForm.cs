using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using BenchDashboard.Core.Kinds.Http.Journeys;
using BenchDashboard.Core.Kinds.Http.Journeys.Har;

namespace BenchDashboard.Web.Pages.Kinds.Http;

/// <summary>
/// One step's card as the form binds it (<c>Http.Steps[2].Url</c>): name, method, URL, headers and body as fields,
/// extractions, checks and think time as small JSON boxes in the API's own words (<c>[{"name":"token","json":"$.token"}]</c>),
/// so what the form posts is what <c>POST /api/runs</c> takes, and every field the API knows round-trips.
/// </summary>
public sealed class HttpStepForm
{
    public string? Name { get; set; }
    public string? Method { get; set; } = "GET";
    public string? Url { get; set; }

    /// <summary>One "Name: value" per line.</summary>
    public string? Headers { get; set; }
    public string? Body { get; set; }

    /// <summary>The step's <c>extract</c> list as JSON.</summary>
    public string? Extract { get; set; }

    /// <summary>The step's <c>checks</c> list as JSON.</summary>
    public string? Checks { get; set; }

    /// <summary>The step's <c>thinkTime</c> object as JSON.</summary>
    public string? ThinkTime { get; set; }

    /// <summary>A token step's scope: when given, the step gets a bearer token from Microsoft Entra instead of sending a request.</summary>
    public string? TokenScope { get; set; }

    /// <summary>The variable the token goes into (default "token").</summary>
    public string? TokenVariable { get; set; }

    /// <summary>"managedIdentity" or "default" (DefaultAzureCredential).</summary>
    public string? TokenCredential { get; set; }

    /// <summary>A user-assigned managed identity's client id, or blank.</summary>
    public string? TokenClientId { get; set; }

    /// <summary>
    /// The step's other fields, which the card has no box for, as a JSON object kept as stored (hidden): a step
    /// kind added to the API after these cards is carried through an edit instead of being dropped.
    /// </summary>
    public string? More { get; set; }

    static readonly string[] CardFields = ["name", "method", "url", "headers", "body", "extract", "checks", "thinkTime", "token"];

    /// <summary>The names in <see cref="More"/>, for the card's note.</summary>
    public IEnumerable<string> MoreNames()
    {
        try { return JsonNode.Parse(More ?? "") is JsonObject more ? more.Select(p => p.Key).ToList() : []; }
        catch (JsonException) { return []; }
    }

    /// <summary>Unknown names are errors, as in the API: a typo ("jsn") must not pass as nothing.</summary>
    static readonly JsonSerializerOptions Strict = new(Core.Json.Options) { UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow };

    static readonly JsonSerializerOptions Written = new(Core.Json.Options) { DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull };

    /// <summary>The headers named in <see cref="Headers"/> that carry credentials, for the card to mark.</summary>
    public IEnumerable<string> SecretHeaders() =>
        (Headers ?? "").Split('\n').Select(line => line.Split(':')[0].Trim()).Where(name => name.Length > 0 && HarHeaders.IsSecret(name)).Distinct(StringComparer.OrdinalIgnoreCase);

    /// <param name="index">The step's place, for its errors' keys (<c>steps[2].extract</c>).</param>
    public HttpStep ToStep(int index, Dictionary<string, string[]> errors)
    {
        var at = $"steps[{index}].";
        Dictionary<string, string>? headers = null;
        foreach (var line in (Headers ?? "").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var colon = line.IndexOf(':');
            if (colon <= 0) errors[at + "headers"] = [$"'{line}' is not a header: write one 'Name: value' per line."];
            else (headers ??= new(StringComparer.OrdinalIgnoreCase))[line[..colon].Trim()] = line[(colon + 1)..].Trim();
        }
        var step = new HttpStep
        {
            Name = (Name ?? "").Trim(),
            Method = string.IsNullOrWhiteSpace(Method) ? "GET" : Method.Trim().ToUpperInvariant(),
            Url = (Url ?? "").Trim(),
            Headers = headers,
            Body = string.IsNullOrEmpty(Body) ? null : Body,
            Extract = Read<List<HttpExtract>>(Extract, at + "extract", "a list of extractions: [{\"name\": \"token\", \"json\": \"$.token\"}]", errors),
            Checks = Read<List<HttpCheck>>(Checks, at + "checks", "a list of checks: [{\"status\": 200}]", errors),
            ThinkTime = Read<HttpThinkTime>(ThinkTime, at + "thinkTime", "{\"ms\": 500}, {\"minMs\": 100, \"maxMs\": 900} or {\"meanMs\": 500}", errors),
            Token = ToToken(at, errors),
        };
        return string.IsNullOrWhiteSpace(More) ? step : WithMore(step, $"steps[{index}]", errors);
    }

    HttpTokenStep? ToToken(string at, Dictionary<string, string[]> errors)
    {
        if (string.IsNullOrWhiteSpace(TokenScope)) return null;
        var credential = HttpTokenCredential.ManagedIdentity;
        if (!string.IsNullOrWhiteSpace(TokenCredential) && !Enum.TryParse(TokenCredential.Trim(), ignoreCase: true, out credential))
            errors[at + "token.credential"] = ["The credential is managedIdentity or default."];
        return new HttpTokenStep
        {
            Scope = TokenScope.Trim(),
            Variable = string.IsNullOrWhiteSpace(TokenVariable) ? "token" : TokenVariable.Trim(),
            Credential = credential,
            ClientId = string.IsNullOrWhiteSpace(TokenClientId) ? null : TokenClientId.Trim(),
        };
    }

    HttpStep WithMore(HttpStep step, string at, Dictionary<string, string[]> errors)
    {
        try
        {
            if (JsonNode.Parse(More!) is not JsonObject more) throw new JsonException("not an object");
            var whole = JsonSerializer.SerializeToNode(step, Written)!.AsObject();
            foreach (var (name, value) in more.ToList())
                if (!CardFields.Contains(name, StringComparer.OrdinalIgnoreCase)) whole[name] = value?.DeepClone();
            return whole.Deserialize<HttpStep>(Strict) ?? step;
        }
        catch (JsonException)
        {
            var names = MoreNames().ToList();
            errors[at] = [names.Count == 0 ? "The step's other fields are not a JSON object." : $"Not fields a step takes: {string.Join(", ", names.Take(5))}."];
            return step;
        }
    }

    static T? Read<T>(string? json, string field, string expected, Dictionary<string, string[]> errors) where T : class
    {
        if (string.IsNullOrWhiteSpace(json)) return null;
        try
        {
            return JsonSerializer.Deserialize<T>(json, Strict);
        }
        catch (JsonException ex)
        {
            var where = ex.Path is { Length: > 1 } path ? $" (at {path})" : "";
            errors[field] = [$"Not {expected}{where}."];
            return null;
        }
    }

    public static HttpStepForm From(HttpStep step) => new()
    {
        Name = step.Name,
        Method = step.Method,
        Url = step.Url,
        Headers = step.Headers is null ? null : string.Join("\n", step.Headers.Select(h => $"{h.Key}: {h.Value}")),
        Body = step.Body,
        Extract = step.Extract is null ? null : JsonSerializer.Serialize(step.Extract, Written),
        Checks = step.Checks is null ? null : JsonSerializer.Serialize(step.Checks, Written),
        ThinkTime = step.ThinkTime is null ? null : JsonSerializer.Serialize(step.ThinkTime, Written),
        TokenScope = step.Token?.Scope,
        TokenVariable = step.Token?.Variable,
        TokenCredential = step.Token is null ? null : JsonNamingPolicy.CamelCase.ConvertName(step.Token.Credential.ToString()),
        TokenClientId = step.Token?.ClientId,
        More = OtherFields(step),
    };

    static string? OtherFields(HttpStep step)
    {
        var whole = JsonSerializer.SerializeToNode(step, Written)!.AsObject();
        foreach (var name in CardFields) whole.Remove(name);
        return whole.Count == 0 ? null : whole.ToJsonString(Written);
    }
}

/// <summary>A card as <c>_StepCard.cshtml</c> draws it: the step, and its place in the field names ("2", or the template's "__i__").</summary>
public sealed record HttpStepCard(HttpStepForm Step, string Index)
{
    /// <summary>The blank card the script clones for "Add a step" and a HAR file's steps.</summary>
    public static HttpStepCard Template => new(new HttpStepForm(), "__i__");
}
