using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages;

/// <summary>The runs list, newest first, filterable by benchmark and status.</summary>
public sealed class IndexModel(RunQueries runs, BenchmarkStore benchmarks) : PageModel
{
    [BindProperty(SupportsGet = true)] public int? BenchmarkId { get; set; }
    [BindProperty(SupportsGet = true)] public RunStatus? Status { get; set; }

    public IReadOnlyList<Run> Runs { get; private set; } = [];
    public IReadOnlyList<Benchmark> Benchmarks { get; private set; } = [];

    public async Task OnGetAsync(CancellationToken ct)
    {
        Runs = await runs.ListAsync(new RunFilter(BenchmarkId, Status), ct);
        Benchmarks = await benchmarks.ListAsync(ct);
    }
}
