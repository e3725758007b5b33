using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>Saved benchmarks with their schedules: enable/disable and run now.</summary>
public sealed class IndexModel(BenchmarkStore store, RunQueue queue) : PageModel
{
    public IReadOnlyList<Benchmark> Benchmarks { get; private set; } = [];
    public string? Message { get; private set; }

    public async Task OnGetAsync(CancellationToken ct) => Benchmarks = await store.ListAsync(ct);

    public async Task<IActionResult> OnPostRunAsync(int id, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        var result = await queue.EnqueueAsync(benchmark, ct);
        if (result.IsValid) return Redirect($"/runs/{result.Run!.Id}");
        Message = $"'{benchmark.Name}' was not queued: {string.Join(" ", result.Errors.SelectMany(e => e.Value))}";
        Benchmarks = await store.ListAsync(ct);
        return Page();
    }

    public async Task<IActionResult> OnPostToggleAsync(int id, bool enabled, CancellationToken ct) =>
        await store.SetEnabledAsync(id, enabled, ct) ? RedirectToPage() : NotFound();
}
