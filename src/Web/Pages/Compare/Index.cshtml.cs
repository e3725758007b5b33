using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Web.Api;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace BenchDashboard.Web.Pages.Compare;

/// <summary>
/// Two or more runs (or phases of runs) side by side, one the baseline. The address is the permalink:
/// <c>/compare?items=12,13&amp;baseline=12</c>. Without items, offers recent finished runs to pick from.
/// </summary>
public sealed class IndexModel(ComparisonQueries comparisons, RunQueries runs) : PageModel
{
    public RunComparison? Comparison { get; private set; }
    public IReadOnlyDictionary<string, string[]> Errors { get; private set; } = new Dictionary<string, string[]>();
    public IReadOnlyList<Run> Recent { get; private set; } = [];
    public List<string> Keys { get; private set; } = [];
    public string ChartJson { get; private set; } = "{}";

    public async Task OnGetAsync(string[]? items, string? baseline, int? seed, CancellationToken ct)
    {
        Keys = CompareApi.SplitItems(items);
        if (Keys.Count > 0)
        {
            var (comparison, errors) = await comparisons.CompareAsync(Keys, baseline, seed ?? Bootstrap.DefaultSeed, ct, Security.AdminGate.IsIdentifiedAdmin(HttpContext));
            Comparison = comparison;
            Errors = errors;
            if (comparison is not null) ChartJson = CompareCharts.Build(comparison);
        }
        if (Comparison is null) Recent = await runs.ListAsync(new RunFilter(Status: RunStatus.Completed, Take: 50), ct);
    }

    /// <summary>The permalink of this comparison with another baseline.</summary>
    public string LinkWithBaseline(string baseline) =>
        $"/compare?items={Uri.EscapeDataString(string.Join(",", Comparison!.Items.Select(i => i.Key)))}&baseline={Uri.EscapeDataString(baseline)}";

    public string CsvLink => $"/api/compare?items={Uri.EscapeDataString(string.Join(",", Comparison!.Items.Select(i => i.Key)))}&baseline={Uri.EscapeDataString(Comparison.BaselineKey)}&format=csv";
}
