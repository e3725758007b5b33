using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Web.Pages.Shared;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>Creates or edits a saved HTTP or cache benchmark and its schedule; invalid input stores nothing.</summary>
public sealed class EditModel(BenchmarkStore store) : PageModel
{
    [BindProperty] public string Name { get; set; } = "";
    [BindProperty] public string? CronSchedule { get; set; }
    [BindProperty] public bool Enabled { get; set; } = true;
    [BindProperty(SupportsGet = true)] public string Kind { get; set; } = "http";
    [BindProperty] public HttpParametersForm Http { get; set; } = new();
    [BindProperty] public CacheParametersForm Cache { get; set; } = new();
    [BindProperty] public FileSystemParametersForm Files { get; set; } = new();
    [BindProperty] public ThresholdsForm Limits { get; set; } = new();
    public int? Id { get; private set; }

    public async Task<IActionResult> OnGetAsync(int? id, CancellationToken ct)
    {
        Id = id;
        if (Kind is not ("cache" or "files")) Kind = "http";
        if (id is null) return Page();
        if (await store.FindAsync(id.Value, ct) is not { } benchmark) return NotFound();
        Name = benchmark.Name;
        CronSchedule = benchmark.CronSchedule;
        Enabled = benchmark.Enabled;
        Limits = ThresholdsForm.From(RunHistory.ThresholdsOf(benchmark));
        if (benchmark.Kind == BenchmarkKind.FileSystem)
        {
            Kind = "files";
            Files = FileSystemParametersForm.From(Json.Deserialize<FileSystemParameters>(benchmark.ParametersJson));
        }
        else if (benchmark.Kind == BenchmarkKind.Cache)
        {
            Kind = "cache";
            Cache = CacheParametersForm.From(Json.Deserialize<CacheParameters>(benchmark.ParametersJson));
        }
        else
        {
            Kind = "http";
            Http = HttpParametersForm.From(Json.Deserialize<HttpParameters>(benchmark.ParametersJson));
        }
        return Page();
    }

    public async Task<IActionResult> OnPostAsync(int? id, CancellationToken ct)
    {
        Id = id;
        var prefix = Kind switch { "cache" => nameof(Cache), "files" => nameof(Files), _ => nameof(Http) };
        if (!ModelState.IsValidFor(prefix) || !ModelState.IsValidFor(nameof(Limits))) return Page();
        var errors = new Dictionary<string, string[]>();
        Benchmark? saved = null;
        if (Kind == "files")
        {
            (saved, errors) = await store.SaveAsync(id, Name, Files.ToParameters(), CronSchedule, Enabled, ct, Limits.ToThresholds());
        }
        else if (Kind == "cache")
        {
            var parameters = Cache.ToParameters(errors);
            if (errors.Count == 0) (saved, errors) = await store.SaveAsync(id, Name, parameters, CronSchedule, Enabled, ct, Limits.ToThresholds());
        }
        else
        {
            var parameters = Http.ToParameters(errors);
            if (errors.Count == 0) (saved, errors) = await store.SaveAsync(id, Name, parameters, CronSchedule, Enabled, ct, Limits.ToThresholds());
        }
        if (saved is not null) return Redirect("/benchmarks");
        ModelState.AddFieldErrors(errors, prefix, thresholdsPrefix: nameof(Limits));
        return Page();
    }
}
