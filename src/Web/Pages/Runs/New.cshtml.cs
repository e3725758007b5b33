using BenchDashboard.Core.Runs;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>Starts an ad-hoc HTTP run. Invalid input is shown beside its field and nothing is queued.</summary>
public sealed class NewModel(RunQueue queue) : PageModel
{
    [BindProperty] public HttpParametersForm Http { get; set; } = new();

    public void OnGet(string? url)
    {
        if (url is not null) Http.Url = url;
    }

    public async Task<IActionResult> OnPostAsync(CancellationToken ct)
    {
        if (!ModelState.IsValid) return Page();
        var errors = new Dictionary<string, string[]>();
        var parameters = Http.ToParameters(errors);
        if (errors.Count == 0)
        {
            var result = await queue.EnqueueAsync(parameters, benchmarkId: null, ct);
            if (result.IsValid) return Redirect($"/runs/{result.Run!.Id}");
            errors = result.Errors.ToDictionary();
        }
        ModelState.AddFieldErrors(errors, nameof(Http));
        return Page();
    }
}
