using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Calibration;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>A benchmark's A/A checks: start one, and see how often identical settings were called different and the smallest difference the setup can see.</summary>
public sealed class AaCheckModel(BenchmarkStore store, AaChecks checks) : PageModel
{
    public Benchmark Benchmark { get; private set; } = null!;
    public IReadOnlyList<AaCheck> Checks { get; private set; } = [];
    public AaCheckReport? Report { get; private set; }
    public string? Message { get; private set; }

    [BindProperty]
    public int Rounds { get; set; } = AaChecks.DefaultRounds;

    public async Task<IActionResult> OnGetAsync(int id, int? check, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        await LoadAsync(benchmark, check, ct);
        return Page();
    }

    public async Task<IActionResult> OnPostAsync(int id, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        if (!ModelState.IsValid)
            Message = "Rounds must be a whole number.";
        else
        {
            var (started, errors) = await checks.StartAsync(id, Rounds, ct);
            if (started is not null) return Redirect($"/benchmarks/{id}/aa-check?check={started.Id}");
            Message = $"The A/A check was not queued: {string.Join(" ", errors.SelectMany(e => e.Value))}";
        }
        await LoadAsync(benchmark, null, ct);
        return Page();
    }

    async Task LoadAsync(Benchmark benchmark, int? check, CancellationToken ct)
    {
        Benchmark = benchmark;
        Checks = await checks.ListAsync(benchmark.Id, ct);
        var shown = check is { } c && Checks.Any(x => x.Id == c) ? c : Checks.FirstOrDefault()?.Id;
        if (shown is { } s) Report = await checks.ReportAsync(s, ct);
    }
}
