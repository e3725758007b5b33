using System.Globalization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Pages.Kinds;

/// <summary>The load-model fields of a kind that sends operations (<see cref="ILoadParameters"/>), as its form binds them.</summary>
public interface ILoadModelForm
{
    /// <summary>"closed" or "open"; named as the API's field, so its errors find it.</summary>
    string Model { get; set; }
    double? Rate { get; set; }

    /// <summary>One stage per line: "seconds rate" ("4 500": ramp to 500 /s over 4 s; "0 100": a step to 100 /s).</summary>
    string? Stages { get; set; }
}

/// <summary>A kind form with the load-model fields (<c>_LoadModelFields.cshtml</c>): converts them both ways.</summary>
public abstract class LoadModelForm<TParameters> : KindForm<TParameters>, ILoadModelForm where TParameters : class, ILoadParameters
{
    public string Model { get; set; } = "closed";
    public double? Rate { get; set; } = 100;
    public string? Stages { get; set; }

    /// <summary>Whether the run lasts as long as its stages: then neither a count nor a duration is sent.</summary>
    protected bool LastsAsStages => Model == "open" && !string.IsNullOrWhiteSpace(Stages);

    protected (LoadModel Model, double? Rate, List<RateStage>? Stages) LoadFields(Dictionary<string, string[]> errors)
    {
        if (Model is not ("closed" or "open"))
        {
            errors["model"] = ["Choose closed or open."];
            return (LoadModel.Closed, null, null);
        }
        if (Model == "closed") return (LoadModel.Closed, null, null);
        return (LoadModel.Open, Rate, ParseStages(Stages, errors));
    }

    protected void LoadFrom(ILoadParameters p)
    {
        Model = p.Model == LoadModel.Open ? "open" : "closed";
        Rate = p.Rate ?? 100;
        Stages = p.Stages is { Count: > 0 } stages
            ? string.Join("\n", stages.Select(s => string.Create(CultureInfo.InvariantCulture, $"{s.DurationSeconds} {s.Rate}")))
            : null;
    }

    static List<RateStage>? ParseStages(string? text, Dictionary<string, string[]> errors)
    {
        var lines = (text ?? "").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (lines.Length == 0) return null;
        var stages = new List<RateStage>();
        foreach (var line in lines)
        {
            var parts = line.Split([' ', '\t', ','], StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 2 && Number(parts[0], "s") is { } seconds && Number(parts[1], "/s") is { } rate)
                stages.Add(new RateStage(seconds, rate));
            else
            {
                errors["stages"] = [$"'{line}' is not a stage: write one \"seconds rate\" per line, e.g. \"30 500\" to ramp to 500 /s over 30 s."];
                return null;
            }
        }
        return stages;
    }

    static double? Number(string text, string unit)
    {
        if (text.EndsWith(unit, StringComparison.OrdinalIgnoreCase)) text = text[..^unit.Length];
        return double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;
    }
}
