using Microsoft.AspNetCore.Mvc.ModelBinding;

namespace BenchDashboard.Web.Pages.Shared;

public static class ModelStateErrors
{
    /// <summary>Puts errors keyed by API field name ("durationSeconds") beside the form field "{prefix}.DurationSeconds".</summary>
    public static void AddFieldErrors(this ModelStateDictionary modelState, IReadOnlyDictionary<string, string[]> errors, string prefix)
    {
        foreach (var (field, messages) in errors)
        {
            var key = field is "name" or "cronSchedule" ? char.ToUpperInvariant(field[0]) + field[1..] : $"{prefix}.{char.ToUpperInvariant(field[0])}{field[1..]}";
            foreach (var message in messages) modelState.AddModelError(key, message);
        }
    }
}
