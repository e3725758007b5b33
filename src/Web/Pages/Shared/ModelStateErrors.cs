using Microsoft.AspNetCore.Mvc.ModelBinding;

namespace BenchDashboard.Web.Pages.Shared;

public static class ModelStateErrors
{
    static readonly HashSet<string> ThresholdFields =
        ["maxMedianMs", "maxP95Ms", "maxP99Ms", "maxErrorPercent", "minRequestsPerSecond", "changeMarginPercent", "confirmRuns"];

    /// <summary>Puts errors keyed by API field name ("durationSeconds") beside the form field "{prefix}.DurationSeconds".</summary>
    /// <param name="thresholdsPrefix">Where the fields of <see cref="Core.Benchmarks.Thresholds"/> are, on a form that has them.</param>
    public static void AddFieldErrors(this ModelStateDictionary modelState, IReadOnlyDictionary<string, string[]> errors, string prefix, string? thresholdsPrefix = null)
    {
        foreach (var (path, messages) in errors)
        {
            // The repeat's fields are the form's own, keyed as bound ("Repeat.Times").
            if (path.StartsWith("Repeat.", StringComparison.Ordinal))
            {
                foreach (var message in messages) modelState.AddModelError(path, message);
                continue;
            }
            // An error inside a field ("stages[2].rate") goes beside the field, saying where.
            var field = path.Split('[', '.')[0];
            var where = field == path || field.Length == 0 ? "" : $"{path}: ";
            if (field.Length == 0) field = path;
            var pascal = char.ToUpperInvariant(field[0]) + field[1..];
            var key = field switch
            {
                "kind" => "", // about the whole form: shown in its validation summary
                "name" or "cronSchedule" or "timeZone" or "agents" or "webhookUrls" or "onEach" or "rounds" => pascal,
                _ when thresholdsPrefix is not null && ThresholdFields.Contains(field) => $"{thresholdsPrefix}.{pascal}",
                _ => $"{prefix}.{pascal}",
            };
            foreach (var message in messages) modelState.AddModelError(key, where + message);
        }
    }

    /// <summary>
    /// Forgets what binding said about the load fields that do not apply to the mode and model chosen (a
    /// duration typed before switching to a count, posted by a browser without script): they are not sent, so
    /// they cannot be wrong. Their posted values stay, shown again if the form comes back.
    /// </summary>
    public static void ForgetIgnoredFields(this ModelStateDictionary modelState, object form, string prefix)
    {
        if (form is not Kinds.ILoadModelForm load) return;
        foreach (var field in load.IgnoredFields())
            if (modelState.TryGetValue($"{prefix}.{field}", out var entry))
            {
                entry.Errors.Clear();
                entry.ValidationState = ModelValidationState.Skipped;
            }
    }

    /// <summary>
    /// Whether the fields under one prefix bound without errors. A page with two forms binds both models on
    /// every post; only the posted one counts.
    /// </summary>
    public static bool IsValidFor(this ModelStateDictionary modelState, string prefix) =>
        modelState.FindKeysWithPrefix(prefix).All(e => e.Value.ValidationState != ModelValidationState.Invalid);

    /// <summary>
    /// A checkbox (<c>asp-for</c> on a bool) re-rendered with a posted value that is not a boolean makes the tag
    /// helper throw while it renders the form again. Such values are replaced by "false" (the field keeps its
    /// error), so a form with nonsense in it comes back as a page, never a 500.
    /// </summary>
    public static void KeepCheckboxesRenderable(this ModelStateDictionary modelState, object model, string prefix)
    {
        foreach (var property in model.GetType().GetProperties().Where(p => p.PropertyType == typeof(bool)))
            KeepCheckboxRenderable(modelState, prefix.Length == 0 ? property.Name : $"{prefix}.{property.Name}");
    }

    public static void KeepCheckboxRenderable(this ModelStateDictionary modelState, string key)
    {
        if (modelState.TryGetValue(key, out var entry) && entry.AttemptedValue is { } attempted
            && !attempted.Split(',').All(v => bool.TryParse(v, out _)))
            modelState.SetModelValue(key, "false", "false");
    }
}
