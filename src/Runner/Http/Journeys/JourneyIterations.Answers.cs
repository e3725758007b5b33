using System.Net.Http;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Kinds.Http.Journeys;

namespace BenchDashboard.Runner.Http.Journeys;

/// <summary>What a journey's step does with its answer, untimed: its checks, then its extractions.</summary>
sealed partial class JourneyIterations
{
    /// <summary>The checks, then the extractions into the worker's values; the first failure in words, or null.</summary>
    static string? Inspect(JourneyWorker worker, Step step, HttpResponseMessage response, int status)
    {
        if (step.Definition.Checks is null && step.Definition.Extract is null) return null;
        var text = Encoding.UTF8.GetString(worker.Body.GetBuffer(), 0, (int)worker.Body.Length);
        JsonDocument? json = null;
        try
        {
            JsonElement? Json(JsonPath path)
            {
                if (json is null)
                    try { json = JsonDocument.Parse(worker.Body.GetBuffer().AsMemory(0, (int)worker.Body.Length)); }
                    catch (JsonException) { return null; }
                return path.Find(json.RootElement);
            }
            foreach (var check in step.Checks)
            {
                var failure = check.Definition switch
                {
                    { Status: { } expected } => status == expected ? null : $"status {status}, expected {expected}",
                    { Header: { } name } c => Header(response, name) is not { } value ? $"no {name} header"
                        : c.EqualTo is { } equal && value != equal ? $"{name} is not '{Shown(equal)}'" : null,
                    { Contains: { } part } => text.Contains(part, StringComparison.Ordinal) ? null : $"the body does not contain '{Shown(part)}'",
                    { Json: { } } c => Json(check.Path!) is not { } found
                        ? (c.Exists == false ? null : $"{check.Path!.Text} is missing")
                        : c.Exists == false ? $"{check.Path!.Text} exists"
                        : c.EqualTo is { } equal && JsonPath.ValueText(found) != equal ? $"{check.Path!.Text} is not '{Shown(equal)}'"
                        : check.Pattern is { } pattern && !Matches(pattern, JsonPath.ValueText(found)) ? $"{check.Path!.Text} does not match {pattern}"
                        : found.ValueKind == JsonValueKind.Array && found.GetArrayLength() == 0 && c.Exists == true ? $"{check.Path!.Text} is empty"
                        : null,
                    _ => null,
                };
                if (failure is not null) return failure;
            }
            foreach (var extract in step.Extracts)
            {
                var value = extract.Definition switch
                {
                    { Json: not null } => Json(extract.Path!) is { } found ? JsonPath.ValueText(found) : null,
                    { Header: { } name } => Header(response, name),
                    _ => Capture(extract.Pattern!, text),
                } ?? extract.Definition.Default;
                if (value is null) return $"{extract.Definition.Name}: nothing to extract ({extract.Definition.Json ?? extract.Definition.Header ?? extract.Definition.Regex})";
                if (value.Length > Journey.MaxValueLength) return $"{extract.Definition.Name}: the value is longer than {Journey.MaxValueLength:N0} characters";
                worker.Values[extract.Definition.Name] = value;
            }
            return null;
        }
        finally
        {
            json?.Dispose();
        }
    }

    static string? Header(HttpResponseMessage response, string name) =>
        response.Headers.NonValidated.TryGetValues(name, out var values) || response.Content.Headers.NonValidated.TryGetValues(name, out values)
            ? values.ToString() : null;

    static bool Matches(Regex pattern, string text)
    {
        try { return pattern.IsMatch(text); }
        catch (RegexMatchTimeoutException) { return false; }
    }

    static string? Capture(Regex pattern, string text)
    {
        try
        {
            var match = pattern.Match(text);
            return !match.Success ? null : match.Groups.Count > 1 ? match.Groups[1].Value : match.Value;
        }
        catch (RegexMatchTimeoutException) { return null; }
    }

    sealed record CompiledCheck(HttpCheck Definition, JsonPath? Path, Regex? Pattern);
    sealed record CompiledExtract(HttpExtract Definition, JsonPath? Path, Regex? Pattern);
}
