using System.Text.Json;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// What a run is called wherever it is listed or titled: its benchmark's name, the setting it stands for (a
/// variant run as runs of its own, <see cref="Benchmarks.LoadParameters.Setting"/>), both, or "(ad hoc)" when it
/// has neither. One rule, so the runs list, the run page, the compare page and the reports agree.
/// </summary>
public static class RunNames
{
    public const string AdHoc = "(ad hoc)";

    /// <summary>The setting's name from the run's stored parameters, or null.</summary>
    public static string? Setting(Run run) => Setting(run.ParametersJson);

    public static string? Setting(string parametersJson)
    {
        try
        {
            using var document = JsonDocument.Parse(parametersJson);
            return document.RootElement.ValueKind == JsonValueKind.Object && document.RootElement.TryGetProperty("setting", out var setting)
                && setting.ValueKind == JsonValueKind.String && setting.GetString() is { Length: > 0 } name ? name : null;
        }
        catch (JsonException)
        {
            return null; // unreadable parameters name nothing; the run page says they are unreadable
        }
    }

    /// <summary>"variants fast, slow": the names of the variants that took turns in the run, or null without variants.</summary>
    public static string? Variants(string parametersJson)
    {
        try
        {
            using var document = JsonDocument.Parse(parametersJson);
            if (document.RootElement.ValueKind != JsonValueKind.Object || !document.RootElement.TryGetProperty("variants", out var variants)
                || variants.ValueKind != JsonValueKind.Array || variants.GetArrayLength() == 0) return null;
            var names = variants.EnumerateArray().Select((v, i) => Benchmarks.VariantRules.NameAt(
                v.ValueKind == JsonValueKind.Object && v.TryGetProperty("name", out var name) && name.ValueKind == JsonValueKind.String ? name.GetString() : null, i));
            return "variants " + string.Join(", ", names);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// "nightly · delay-2ms", "nightly", "delay-2ms", "variants fast, slow" or null: the run's names, without the ad-hoc
    /// word. A benchmark's name is enough for a run of it; an ad-hoc run of variants is named by them.
    /// </summary>
    public static string? Named(Run run)
    {
        var benchmark = run.Benchmark?.Name ?? run.BenchmarkName;
        var setting = Setting(run) ?? (benchmark is { Length: > 0 } ? null : Variants(run.ParametersJson));
        return (benchmark, setting) switch
        {
            ({ Length: > 0 } b, { } s) => $"{b} · {s}",
            ({ Length: > 0 } b, null) => b,
            (_, { } s) => s,
            _ => null,
        };
    }

    /// <summary>The run's name, or "(ad hoc)".</summary>
    public static string Title(Run run) => Named(run) ?? AdHoc;
}
