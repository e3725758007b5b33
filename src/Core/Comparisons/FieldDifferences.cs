using System.Text.Json;
using System.Text.Json.Nodes;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Comparisons;

/// <summary>A parameter or environment field whose value is not the same for every compared item (null: absent).</summary>
public sealed record FieldDifference(string Field, IReadOnlyList<string?> Values);

/// <summary>
/// Everything that describes how an item was measured, flattened to "field → value": the kind, benchmark,
/// series, every parameter (<c>parameters.concurrency</c>, <c>parameters.headers.Accept</c>) and every
/// environment field (<c>environment.machineName</c>, <c>environment.WEBSITE_DYNAMIC_CACHE</c>). Comparing
/// these is how the compare page tells a user that more than the setting under test changed.
/// </summary>
public static class FieldDifferences
{
    /// <summary>Fields whose difference means the runs did not even run on the same thing.</summary>
    public static readonly string[] PlatformFields =
        ["environment.machineName", "environment.osDescription", "environment.dotnetVersion", "environment.processorCount", "environment.WEBSITE_INSTANCE_ID"];

    /// <param name="shownParameters">The parameters JSON as the reader may see it (secrets fingerprinted, or not for an administrator).</param>
    public static IReadOnlyList<FieldDifference> Between(IReadOnlyList<ComparedItem> items, Func<string, string> shownParameters)
    {
        var fields = items.Select(i => Flatten(i, shownParameters)).ToList();
        return fields.SelectMany(f => f.Keys).Distinct().Order(StringComparer.Ordinal)
            .Select(name => new FieldDifference(name, fields.Select(f => f.GetValueOrDefault(name)).ToList()))
            .Where(d => d.Values.Distinct().Count() > 1)
            .ToList();
    }

    public static SortedDictionary<string, string> Flatten(ComparedItem item, Func<string, string> shownParameters)
    {
        var fields = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["kind"] = item.Run.Kind,
            ["benchmark"] = item.Run.Benchmark?.Name ?? item.Run.BenchmarkName ?? RunNames.AdHoc,
        };
        if (item.Series is not null) fields["series"] = item.Series;
        Add(fields, "parameters", JsonNode.Parse(shownParameters(item.Run.ParametersJson)));
        // A setting's name labels the parameters beside it; it changes nothing measured, so it is not a parameter.
        if (fields.Remove("parameters.setting", out var setting)) fields["setting"] = setting;
        if (item.Run.EnvironmentJson is not null)
        {
            var environment = Json.Deserialize<EnvironmentSnapshot>(item.Run.EnvironmentJson);
            fields["environment.machineName"] = environment.MachineName;
            fields["environment.osDescription"] = environment.OsDescription;
            fields["environment.dotnetVersion"] = environment.DotnetVersion;
            fields["environment.processorCount"] = environment.ProcessorCount.ToString();
            foreach (var (name, value) in environment.PlatformVariables) fields[$"environment.{name}"] = value;
            foreach (var (name, value) in environment.Client ?? []) fields[$"environment.{name}"] = value;
        }
        return fields;
    }

    static void Add(SortedDictionary<string, string> fields, string path, JsonNode? node)
    {
        switch (node)
        {
            case JsonObject o:
                foreach (var (name, child) in o) Add(fields, $"{path}.{name}", child);
                break;
            case JsonArray a:
                fields[path] = string.Join(", ", a.Select(v => v?.ToString() ?? "null"));
                break;
            case null:
                break; // an absent value and null read the same
            default:
                fields[path] = node.ToString();
                break;
        }
    }
}
