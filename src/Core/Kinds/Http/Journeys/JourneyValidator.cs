using System.Text.RegularExpressions;

namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// A journey's steps, each field's error keyed by step as the API names it (<c>steps[2].extract[0].json</c>): the
/// limits below, names unique, every <c>{{reference}}</c> to a variable an earlier step extracts or a built-in, a
/// static origin in every URL (the target policy judges it before the run; <see cref="Template.StaticOrigin"/>).
/// </summary>
public static class JourneyValidator
{
    public const int MaxSteps = 50;
    public const int MaxExtracts = 20;
    public const int MaxChecks = 20;
    public const int MaxNameLength = 64;
    public const int MaxPatternLength = 512;

    /// <summary>The whole iteration's series: no step may take its name.</summary>
    public const string IterationSeries = "iteration";

    /// <summary>How long a regular expression may take on one answer before it counts as not matching.</summary>
    public static readonly TimeSpan RegexBudget = TimeSpan.FromMilliseconds(100);

    public static void Validate(List<HttpStep>? steps, Action<string, string> add)
    {
        if (steps is null || steps.Count is 0 or > MaxSteps)
        {
            add("steps", $"A journey has 1 to {MaxSteps} steps.");
            return;
        }
        var names = new HashSet<string>(StringComparer.Ordinal);
        var defined = new HashSet<string>(Template.BuiltIns, StringComparer.Ordinal);
        for (var i = 0; i < steps.Count; i++)
        {
            var at = $"steps[{i}].";
            if (steps[i] is not { } step)
            {
                add($"steps[{i}]", "A step is an object, not null.");
                continue;
            }
            if (string.IsNullOrWhiteSpace(step.Name) || step.Name.Length > MaxNameLength || step.Name.Any(c => char.IsControl(c) || c == '/'))
                add(at + "name", $"Name each step: at most {MaxNameLength} characters, no '/' or control characters (it names the step's series).");
            else if (step.Name == IterationSeries)
                add(at + "name", $"'{IterationSeries}' is the whole iteration's series; name the step otherwise.");
            else if (!names.Add(step.Name))
                add(at + "name", $"Another step is named '{step.Name}'; each step's name is its own series.");

            if (step.Url is null || step.Url.Length > HttpParametersValidator.MaxUrlLength)
                add(at + "url", $"Enter a URL of at most {HttpParametersValidator.MaxUrlLength:N0} characters.");
            else if (Template.StaticOrigin(step.Url) is null && !Template.IsVariableOrigin(step.Url))
                add(at + "url", "Enter an absolute http:// or https:// URL, or one that starts with a variable ({{next}}) or has one in its host.");
            HttpParametersValidator.ValidateRequest(step.Method, step.Body, step.Headers, at, add);

            // What this step's text may refer to: built-ins and what earlier steps extracted.
            void References(string? text, string field)
            {
                if (text is null) return;
                foreach (var name in Template.Parse(text).Names)
                    if (!defined.Contains(name))
                        add(at + field, $"'{{{{{Shown(name)}}}}}' is neither a built-in ({string.Join(", ", Template.BuiltIns)}) nor extracted by an earlier step.");
            }
            References(step.Url, "url");
            References(step.Body, "body");
            foreach (var value in step.Headers?.Values ?? Enumerable.Empty<string>()) References(value, "headers");

            if (step.Extract is { Count: > MaxExtracts }) add(at + "extract", $"At most {MaxExtracts} extractions a step.");
            foreach (var (extract, e) in (step.Extract ?? []).Take(MaxExtracts).Select((x, e) => (x, e)))
            {
                var key = $"{at}extract[{e}]";
                if (extract is null) { add(key, "An extraction is an object, not null."); continue; }
                if (string.IsNullOrEmpty(extract.Name) || !Template.VariableName().IsMatch(extract.Name))
                    add(key + ".name", "A variable's name is a letter or '_' then letters, digits or '_', at most 64.");
                else if (Template.BuiltIns.Contains(extract.Name))
                    add(key + ".name", $"'{extract.Name}' is a built-in; choose another name.");
                var sources = new[] { extract.Json, extract.Header, extract.Regex }.Count(s => s is not null);
                if (sources != 1) add(key, "An extraction takes exactly one of json, header or regex.");
                if (extract.Json is not null && JsonPath.TryParse(extract.Json, out var pathError) is null) add(key + ".json", pathError!);
                if (extract.Header is { } header && (header.Length is 0 or > HttpParametersValidator.MaxHeaderNameLength || header.Any(c => c <= ' ' || c == ':' || c > '~')))
                    add(key + ".header", "A header name: visible ASCII without ':'.");
                if (extract.Regex is not null && PatternError(extract.Regex) is { } regexError) add(key + ".regex", regexError);
                if (extract.Default is { Length: > Journey.MaxValueLength }) add(key + ".default", $"A default has at most {Journey.MaxValueLength:N0} characters.");
            }

            if (step.Checks is { Count: > MaxChecks }) add(at + "checks", $"At most {MaxChecks} checks a step.");
            foreach (var (check, c) in (step.Checks ?? []).Take(MaxChecks).Select((x, c) => (x, c)))
            {
                var key = $"{at}checks[{c}]";
                if (check is null) { add(key, "A check is an object, not null."); continue; }
                var kinds = new object?[] { check.Status, check.Header, check.Contains, check.Json }.Count(k => k is not null);
                if (kinds != 1) { add(key, "A check takes exactly one of status, header, contains or json."); continue; }
                if (check.Status is < 100 or > 599) add(key + ".status", "A status is between 100 and 599.");
                if (check.Contains is { Length: 0 or > MaxPatternLength }) add(key + ".contains", $"Text of 1 to {MaxPatternLength} characters.");
                if (check.Header is { } header && (header.Length is 0 or > HttpParametersValidator.MaxHeaderNameLength || header.Any(ch => ch <= ' ' || ch == ':' || ch > '~')))
                    add(key + ".header", "A header name: visible ASCII without ':'.");
                if (check.Json is not null)
                {
                    if (JsonPath.TryParse(check.Json, out var pathError) is null) add(key + ".json", pathError!);
                    if (new object?[] { check.EqualTo, check.Exists, check.Matches }.Count(x => x is not null) != 1)
                        add(key, "A JSON check takes exactly one of equals, exists or matches.");
                }
                else if (check.Exists is not null || check.Matches is not null || (check.EqualTo is not null && check.Header is null))
                    add(key, "equals, exists and matches go with json (equals also with header).");
                if (check.Matches is not null && PatternError(check.Matches) is { } regexError) add(key + ".matches", regexError);
                if (check.EqualTo is { Length: > Journey.MaxValueLength }) add(key + ".equals", $"At most {Journey.MaxValueLength:N0} characters.");
            }

            if (step.ThinkTime is { } think)
            {
                var shapes = (think.Ms is not null ? 1 : 0) + (think.MeanMs is not null ? 1 : 0) + (think.MinMs is not null || think.MaxMs is not null ? 1 : 0);
                static bool Ok(double? ms) => ms is null || (double.IsFinite(ms.Value) && ms >= 0 && ms <= HttpThinkTime.MaxPauseMs);
                if (shapes != 1 || (think.MinMs is null) != (think.MaxMs is null))
                    add(at + "thinkTime", "Think time is one of {\"ms\": fixed}, {\"minMs\", \"maxMs\": uniform} or {\"meanMs\": exponential}.");
                else if (!Ok(think.Ms) || !Ok(think.MinMs) || !Ok(think.MaxMs) || !Ok(think.MeanMs) || think.MinMs > think.MaxMs)
                    add(at + "thinkTime", $"Think times are 0 to {HttpThinkTime.MaxPauseMs:N0} ms, the minimum at most the maximum.");
            }

            // Only after the step: its own extractions are for the steps after it.
            foreach (var extract in step.Extract ?? [])
                if (extract?.Name is { } name && Template.VariableName().IsMatch(name)) defined.Add(name);
        }
    }

    static string? PatternError(string pattern)
    {
        if (pattern.Length is 0 or > MaxPatternLength) return $"A regular expression of 1 to {MaxPatternLength} characters.";
        try
        {
            _ = new Regex(pattern, RegexOptions.None, RegexBudget);
            return null;
        }
        catch (ArgumentException ex)
        {
            return $"Not a regular expression: {ex.Message}";
        }
    }

    static string Shown(string name) => new(name.Take(40).Select(c => char.IsControl(c) ? '?' : c).ToArray());
}
