using Microsoft.AspNetCore.Mvc.ModelBinding;

namespace BenchDashboard.Web.Pages.Shared;

public static class ModelStateErrors
{
    /// <summary>Puts errors keyed by API field name ("durationSeconds") beside the form field "{prefix}.DurationSeconds".</summary>
    public static void AddFieldErrors(this ModelStateDictionary modelState, IReadOnlyDictionary<string, string[]> errors, string prefix)
    {
        foreach (var (field, messages) in errors)
        {
            var key = field switch
            {
                "kind" => "", // about the whole form: shown in its validation summary
                "name" or "cronSchedule" => char.ToUpperInvariant(field[0]) + field[1..],
                _ => $"{prefix}.{char.ToUpperInvariant(field[0])}{field[1..]}",
            };
            foreach (var message in messages) modelState.AddModelError(key, message);
        }
    }

    /// <summary>
    /// Whether the fields under one prefix bound without errors. A page with two forms binds both models on
    /// every post; only the posted one counts.
    /// </summary>
    public static bool IsValidFor(this ModelStateDictionary modelState, string prefix) =>
        modelState.FindKeysWithPrefix(prefix).All(e => e.Value.ValidationState != ModelValidationState.Invalid);
}
