using System.Text.Json;
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
        return new HttpStep
        {
            Name = (Name ?? "").Trim(),
            Method = string.IsNullOrWhiteSpace(Method) ? "GET" : Method.Trim().ToUpperInvariant(),
            Url = (Url ?? "").Trim(),
            Headers = headers,
            Body = string.IsNullOrEmpty(Body) ? null : Body,
            Extract = Read<List<HttpExtract>>(Extract, at + "extract", "a list of extractions: [{\"name\": \"token\", \"json\": \"$.token\"}]", errors),
            Checks = Read<List<HttpCheck>>(Checks, at + "checks", "a list of checks: [{\"status\": 200}]", errors),
            ThinkTime = Read<HttpThinkTime>(ThinkTime, at + "thinkTime", "{\"ms\": 500}, {\"minMs\": 100, \"maxMs\": 900} or {\"meanMs\": 500}", errors),
        };
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
    };
}

/// <summary>A card as <c>_StepCard.cshtml</c> draws it: the step, and its place in the field names ("2", or the template's "__i__").</summary>
public sealed record HttpStepCard(HttpStepForm Step, string Index)
{
    /// <summary>The blank card the script clones for "Add a step" and a HAR file's steps.</summary>
    public static HttpStepCard Template => new(new HttpStepForm(), "__i__");
}
