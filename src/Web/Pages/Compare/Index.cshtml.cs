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

    /// <summary>What the latencies of open-model runs are here: corrected (default) or service time (<c>?latency=service</c>).</summary>
    public LatencyBasis Basis { get; private set; }

    /// <summary>Whether some compared run is open-model, so that the two latencies differ and the page offers both.</summary>
    public bool HasOpenModel => Basis == LatencyBasis.Service || Comparison?.Items.Any(i => i.Statistics.IsOpenModel) == true;

    public async Task OnGetAsync(string[]? items, string? baseline, int? seed, string? latency, string? margin, CancellationToken ct)
    {
        Keys = CompareApi.SplitItems(items);
        if (!LatencyBasisQuery.TryParse(latency, out var basis))
        {
            Errors = new Dictionary<string, string[]> { ["latency"] = [LatencyBasisQuery.Message] };
            Keys = [];
        }
        if (!CompareApi.TryParseMargin(margin, out var fraction))
        {
            Errors = new Dictionary<string, string[]> { ["margin"] = [CompareApi.MarginMessage] };
            Keys = [];
        }
        Basis = basis;
        if (Keys.Count > 0)
        {
            var (comparison, errors) = await comparisons.CompareAsync(Keys, baseline, seed ?? Bootstrap.DefaultSeed, ct, Security.AdminGate.IsIdentifiedAdmin(HttpContext), basis, fraction);
            Comparison = comparison;
            Errors = errors;
            if (comparison is not null) ChartJson = CompareCharts.Build(comparison);
        }
        if (Comparison is null) Recent = await runs.ListAsync(new RunFilter(Status: RunStatus.Completed, Take: 50), ct);
    }

    /// <summary>The permalink of this comparison with another baseline (or latency basis).</summary>
    public string LinkWithBaseline(string baseline, LatencyBasis? basis = null) =>
        $"/compare?items={Uri.EscapeDataString(string.Join(",", Comparison!.Items.Select(i => i.Key)))}&baseline={Uri.EscapeDataString(baseline)}{LatencyQuery(basis ?? Basis)}{MarginQuery}";

    public string CsvLink => ApiLink + "&format=csv";

    public string ApiLink => $"/api/compare?items={Uri.EscapeDataString(string.Join(",", Comparison!.Items.Select(i => i.Key)))}&baseline={Uri.EscapeDataString(Comparison.BaselineKey)}{LatencyQuery(Basis)}{MarginQuery}";

    string MarginQuery => Comparison!.Margin == Verdicts.DefaultMargin ? "" : "&margin=" + (Comparison.Margin * 100).ToString("0.###", System.Globalization.CultureInfo.InvariantCulture);

    static string LatencyQuery(LatencyBasis basis) => LatencyBasisQuery.Name(basis) is { } name ? "&latency=" + name : "";
}
