using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Benchmarks;

/// <summary>Saved benchmarks with their schedules: enable/disable, run now and delete.</summary>
public sealed class IndexModel(BenchmarkStore store, RunQueue queue, BenchmarkDefinitions definitions) : PageModel
{
    public IReadOnlyList<Benchmark> Benchmarks { get; private set; } = [];
    public string? Message { get; private set; }

    /// <summary>The name of the benchmark the last delete removed, carried over the redirect (never from the address: a link could not show a false one).</summary>
    [TempData] public string? Deleted { get; set; }

    /// <summary>The editor's confirmation of a save (what was saved, when it runs next), carried over its redirect.</summary>
    [TempData] public string? SavedMessage { get; set; }

    /// <summary>The moment the schedules' next runs are counted from.</summary>
    public DateTimeOffset Now { get; } = DateTimeOffset.UtcNow;

    /// <summary>Delete is offered to administrators only (posting it needs one anyway: <see cref="Security.AdminGate"/>).</summary>
    public bool MayDelete => Security.AdminGate.IsIdentifiedAdmin(HttpContext);

    /// <summary>Each benchmark's newest run, by its id.</summary>
    public IReadOnlyDictionary<int, Run> LatestRuns { get; private set; } = new Dictionary<int, Run>();

    public async Task OnGetAsync(CancellationToken ct) => await ListAsync(ct);

    async Task ListAsync(CancellationToken ct)
    {
        Benchmarks = await store.ListAsync(ct);
        LatestRuns = await store.LatestRunsAsync(ct);
    }

    /// <summary>
    /// Deletes a benchmark once the box is ticked; its runs stay, named as it was (as the API's DELETE does).
    /// Shared by the list and the editor.
    /// </summary>
    public async Task<IActionResult> OnPostDeleteAsync(int id, bool confirm, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        if (!confirm)
        {
            Message = $"'{benchmark.Name}' was not deleted: tick the box beside Delete to confirm.";
            await ListAsync(ct);
            Response.StatusCode = StatusCodes.Status400BadRequest;
            return Page();
        }
        return await definitions.DeleteAsync(id, null, ct) == DefinitionOutcome.NotFound
            ? NotFound()
            : RedirectWithDeleted(benchmark.Name);
    }

    IActionResult RedirectWithDeleted(string name)
    {
        Deleted = name;
        return RedirectToPage();
    }

    public async Task<IActionResult> OnPostRunAsync(int id, CancellationToken ct)
    {
        if (await store.FindAsync(id, ct) is not { } benchmark) return NotFound();
        var result = await queue.EnqueueAsync(benchmark, ct);
        if (result.IsValid) return Redirect($"/runs/{result.Run!.Id}");
        Message = $"'{benchmark.Name}' was not queued: {string.Join(" ", result.Errors.SelectMany(e => e.Value))}";
        await ListAsync(ct);
        return Page();
    }

    public async Task<IActionResult> OnPostToggleAsync(int id, bool enabled, CancellationToken ct) =>
        await store.SetEnabledAsync(id, enabled, ct) ? RedirectToPage() : NotFound();
}
