using BenchDashboard.Core.Runs;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Runs;

/// <summary>Starts an ad-hoc HTTP or cache run. Invalid input is shown beside its field and nothing is queued.</summary>
public sealed class NewModel(RunQueue queue) : PageModel
{
    [BindProperty(SupportsGet = true)] public string Kind { get; set; } = "http";
    [BindProperty] public HttpParametersForm Http { get; set; } = new();
    [BindProperty] public CacheParametersForm Cache { get; set; } = new();
    [BindProperty] public FileSystemParametersForm Files { get; set; } = new();

    public void OnGet(string? url)
    {
        if (Kind is not ("cache" or "files")) Kind = "http";
        if (url is not null) Http.Url = url;
    }

    public async Task<IActionResult> OnPostAsync(CancellationToken ct)
    {
        Kind = "http";
        if (!ModelState.IsValidFor(nameof(Http))) return Page();
        var errors = new Dictionary<string, string[]>();
        var parameters = Http.ToParameters(errors);
        return errors.Count == 0 ? Queued(await queue.EnqueueAsync(parameters, benchmarkId: null, ct), nameof(Http)) : Invalid(errors, nameof(Http));
    }

    public async Task<IActionResult> OnPostCacheAsync(CancellationToken ct)
    {
        Kind = "cache";
        if (!ModelState.IsValidFor(nameof(Cache))) return Page();
        var errors = new Dictionary<string, string[]>();
        var parameters = Cache.ToParameters(errors);
        return errors.Count == 0 ? Queued(await queue.EnqueueAsync(parameters, benchmarkId: null, ct), nameof(Cache)) : Invalid(errors, nameof(Cache));
    }

    public async Task<IActionResult> OnPostFilesAsync(CancellationToken ct)
    {
        Kind = "files";
        if (!ModelState.IsValidFor(nameof(Files))) return Page();
        return Queued(await queue.EnqueueAsync(Files.ToParameters(), benchmarkId: null, ct), nameof(Files));
    }

    IActionResult Queued(EnqueueResult result, string prefix) =>
        result.IsValid ? Redirect($"/runs/{result.Run!.Id}") : Invalid(result.Errors, prefix);

    IActionResult Invalid(IReadOnlyDictionary<string, string[]> errors, string prefix)
    {
        ModelState.AddFieldErrors(errors, prefix);
        return Page();
    }
}
