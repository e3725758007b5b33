using System.Globalization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Web.Pages.Kinds;

/// <summary>
/// The load fields (<see cref="LoadParameters"/>) as every kind's form binds them and <c>_LoadModelFields.cshtml</c>
/// shows them: the partial's model. A kind says only how its counts read (<see cref="Counting"/>).
/// </summary>
public interface ILoadModelForm
{
    /// <summary>"requests" (a count) or "duration" (seconds).</summary>
    string Mode { get; set; }
    int? Requests { get; set; }
    int? DurationSeconds { get; set; }
    int? Concurrency { get; set; }
    int? TimeoutMs { get; set; }

    /// <summary>"closed" or "open"; named as the API's field, so its errors find it.</summary>
    string Model { get; set; }
    double? Rate { get; set; }

    /// <summary>One stage per line: "seconds rate" ("4 500": ramp to 500 /s over 4 s; "0 100": a step to 100 /s).</summary>
    string? Stages { get; set; }

    /// <summary>Fields (property names) that do not apply to the mode and model chosen, so are neither sent nor checked.</summary>
    IEnumerable<string> IgnoredFields();

    /// <summary>How this kind's counts read on the form.</summary>
    LoadFormCounting Counting { get; }

    /// <summary>The factors a count is multiplied by, as the form is filled now: ("variants", 3) or ("phases", 4).</summary>
    IReadOnlyList<(string Noun, int Count)> CountFactors();
}

/// <summary>
/// A kind's words for the shared load fields, and how the page's script counts the factors of a count live
/// (<c>load-fields.js</c>): each rule is "checked:FIELD" (ticked boxes), "product:FIELD,FIELD" (their counts
/// multiplied: a matrix of settings) or "rows:FIELD" (filled variant rows, plus the fields above as the first).
/// </summary>
/// <param name="Noun">"requests" or "operations".</param>
/// <param name="Per">"per variant", "per phase": what one count is of ("" when it is the run's).</param>
public sealed record LoadFormCounting(string Noun, string Per, string DurationHint, string ConcurrencyHint, IReadOnlyList<(string Noun, string Rule)> Factors);

/// <summary>A kind form with the load fields: the one mapping of them both ways, for every kind.</summary>
public abstract class LoadModelForm<TParameters> : KindForm<TParameters>, ILoadModelForm where TParameters : LoadParameters
{
    /// <param name="requests">The kind's default count, shown in the field before anyone types.</param>
    protected LoadModelForm(int requests, int durationSeconds, int timeoutMs)
    {
        Requests = requests;
        DurationSeconds = durationSeconds;
        TimeoutMs = timeoutMs;
    }

    public string Mode { get; set; } = "requests";
    public int? Requests { get; set; }
    public int? DurationSeconds { get; set; }
    public int? Concurrency { get; set; } = 1;
    public int? TimeoutMs { get; set; }
    public string Model { get; set; } = "closed";
    public double? Rate { get; set; } = 100;
    public string? Stages { get; set; }

    public abstract LoadFormCounting Counting { get; }
    public abstract IReadOnlyList<(string Noun, int Count)> CountFactors();

    /// <summary>Whether the run lasts as long as its stages: then neither a count nor a duration is sent.</summary>
    bool LastsAsStages => Model == "open" && !string.IsNullOrWhiteSpace(Stages);

    /// <summary>
    /// Form fields (property names) that do not apply to the mode and model chosen: the script hides them, and
    /// without it they may still be posted, with anything in them; the page forgets their binding errors and
    /// <see cref="WithLoad"/> sends none of them.
    /// </summary>
    public IEnumerable<string> IgnoredFields()
    {
        if (Mode == "duration" || LastsAsStages) yield return nameof(Requests);
        if (Mode != "duration" || LastsAsStages) yield return nameof(DurationSeconds);
        if (Model != "open") { yield return nameof(Rate); yield return nameof(Stages); }
    }

    /// <summary>The kind's own parameters with the load fields put in: the form's one mapping of them to the API's.</summary>
    protected TParameters WithLoad(TParameters own, Dictionary<string, string[]> errors)
    {
        if (Mode is not ("requests" or "duration")) errors["mode"] = ["Choose a number of requests or a duration."];
        var model = LoadModel.Closed;
        if (Model == "open") model = LoadModel.Open;
        else if (Model != "closed") errors["model"] = ["Choose closed or open."];
        var ignored = IgnoredFields().ToHashSet();
        LoadParameters load = ((LoadParameters)own) with
        {
            Requests = ignored.Contains(nameof(Requests)) ? null : Requests ?? 0,
            DurationSeconds = ignored.Contains(nameof(DurationSeconds)) ? null : DurationSeconds ?? 0,
            Model = model,
            Rate = model == LoadModel.Open ? Rate : null,
            Stages = model == LoadModel.Open ? ParseStages(Stages, errors) : null,
            Concurrency = Concurrency ?? 0,
            TimeoutMs = TimeoutMs ?? 0,
        };
        return (TParameters)load;
    }

    /// <summary>The load fields from stored parameters (the editor): the mapping back.</summary>
    protected void LoadFrom(LoadParameters p)
    {
        Mode = p.DurationSeconds is null ? "requests" : "duration";
        if (p.Requests is { } requests) Requests = requests;
        if (p.DurationSeconds is { } seconds) DurationSeconds = seconds;
        Concurrency = p.Concurrency;
        TimeoutMs = p.TimeoutMs;
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

/// <summary>The sentence under a count: "per variant: 3 variants × 50 = 150 requests".</summary>
public static class LoadCountSentence
{
    public static string Of(ILoadModelForm form)
    {
        var factors = form.CountFactors().Where(f => f.Count != 1 || form.Counting.Per.Length > 0).ToList();
        var n = form.Requests ?? 0;
        var total = factors.Aggregate((long)n, (product, f) => product * f.Count);
        var noun = form.Counting.Noun;
        if (factors.All(f => f.Count == 1)) return $"{total:N0} {noun} in all.";
        var steps = string.Join(" × ", factors.Where(f => f.Count != 1).Select(f => $"{f.Count:N0} {f.Noun}"));
        return $"{form.Counting.Per}: {steps} × {n:N0} = {total:N0} {noun} in all.";
    }
}
