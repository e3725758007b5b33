using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>Creates or edits a saved HTTP benchmark and its schedule; invalid input stores nothing.</summary>
public sealed class EditModel(BenchmarkStore store) : PageModel
{
    [BindProperty] public string Name { get; set; } = "";
    [BindProperty] public string? CronSchedule { get; set; }
    [BindProperty] public bool Enabled { get; set; } = true;
    [BindProperty] public HttpParametersForm Http { get; set; } = new();
    public int? Id { get; private set; }

    public async Task<IActionResult> OnGetAsync(int? id, CancellationToken ct)
    {
        Id = id;
        if (id is null) return Page();
        if (await store.FindAsync(id.Value, ct) is not { } benchmark) return NotFound();
        Name = benchmark.Name;
        CronSchedule = benchmark.CronSchedule;
        Enabled = benchmark.Enabled;
        Http = HttpParametersForm.From(Json.Deserialize<HttpParameters>(benchmark.ParametersJson));
        return Page();
    }

    public async Task<IActionResult> OnPostAsync(int? id, CancellationToken ct)
    {
        Id = id;
        if (!ModelState.IsValid) return Page();
        var errors = new Dictionary<string, string[]>();
        var parameters = Http.ToParameters(errors);
        if (errors.Count == 0)
        {
            var (saved, saveErrors) = await store.SaveAsync(id, Name, parameters, CronSchedule, Enabled, ct);
            if (saved is not null) return Redirect("/benchmarks");
            errors = saveErrors;
        }
        ModelState.AddFieldErrors(errors, nameof(Http));
        return Page();
    }
}
