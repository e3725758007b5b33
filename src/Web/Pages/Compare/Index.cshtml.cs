using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using BenchDashboard.Web.Api;
using Microsoft.AspNetCore.Mvc;
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

    /// <summary>How each group of runs stands for its setting: pooled (default) or its best run (<c>?pick=best</c>).</summary>
    public GroupPick Pick { get; private set; }

    /// <summary>Named runs still queued or running: the page waits for them and reloads.</summary>
    public IReadOnlyList<Run> Pending { get; private set; } = [];

    /// <param name="group">From the picker: runs of the same setting become one group (<see cref="SettingGroups"/>).</param>
    public async Task<IActionResult> OnGetAsync(string[]? items, string? baseline, int? seed, string? latency, string? margin, string? pick, bool group, CancellationToken ct)
    {
        Keys = CompareApi.SplitItems(items);
        if (!GroupPicks.TryParse(pick, out var groupPick))
        {
            Errors = new Dictionary<string, string[]> { ["pick"] = [GroupPicks.Message] };
            Keys = [];
        }
        Pick = groupPick;
        var named = new Dictionary<long, Run>();
        foreach (var id in SettingGroups.RunIds(Keys).Take(ComparisonQueries.MaxItems * ComparisonQueries.MaxGroupRuns))
            if (await runs.FindAsync(id, ct) is { } run) named[id] = run;
        if (group && Keys.Count > 0)
        {
            // The grouped address is the permalink, so it is where the picker leads.
            var grouped = SettingGroups.Of(Keys, named);
            return Redirect((Reports.Report.IsReport(HttpContext) ? "/compare/report" : "/compare") + "?items=" + Uri.EscapeDataString(string.Join(",", grouped)) + (GroupPicks.Name(Pick) is { } p ? "&pick=" + p : ""));
        }
        Pending = named.Values.Where(r => r.Status is RunStatus.Queued or RunStatus.Running).OrderBy(r => r.Id).ToList();
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
        if (Keys.Count > 0 && Pending.Count == 0)
        {
            var (comparison, errors) = await comparisons.CompareAsync(Keys, baseline, seed ?? Bootstrap.DefaultSeed, ct, Reports.Report.RevealsSecrets(HttpContext), basis, fraction);
            Comparison = comparison;
            Errors = errors;
            if (comparison is not null) ChartJson = CompareCharts.Build(comparison);
        }
        if (Reports.Report.IsReport(HttpContext))
        {
            if (Reports.Report.RefuseComparison(this, Comparison, Pending, Errors) is { } refused) return refused;
            Reports.Report.Attach(Response, "compare-" + string.Join("-", Comparison!.Items.Select(i => i.Key)) + "-report");
            return Page();
        }
        if (Comparison is null && Pending.Count == 0) Recent = await runs.ListAsync(new RunFilter(Status: RunStatus.Completed, Take: 50), ct);
        return Page();
    }

    /// <summary>
    /// What sets an item apart from the others, for its row: the parameters that differ (at most two), in full as the
    /// reader may see them ("url http://127.0.0.1:5000/target/delay?ms=2"; a secret as its fingerprint). The setting's
    /// name is the row's label already.
    /// </summary>
    public string SettingOf(ComparedItem item)
    {
        var index = Comparison!.Items.ToList().IndexOf(item);
        var parts = Comparison.Differences.Where(d => d.Field.StartsWith("parameters.", StringComparison.Ordinal)).Take(2)
            .Select(d => $"{d.Field["parameters.".Length..]} {d.Values[index] ?? "(absent)"}");
        return string.Join(", ", parts);
    }

    /// <summary>The verdict on one percentile of an item against the baseline, if there is one.</summary>
    public Verdict? VerdictOn(string itemKey, string metric) => Comparison?.Verdicts.FirstOrDefault(v => v.ItemKey == itemKey && v.Metric == metric);

    /// <summary>
    /// The call that may colour a figure of the summary table: the verdict on that percentile (median, p95, p99); for
    /// the other latency figures the verdicts' call when all three agree on a difference and the figure itself moved
    /// that way (a slowest request can go against the median). Otherwise none: a colour never says what the ratio beside it does not.
    /// </summary>
    public VerdictCall? CallFor(string itemKey, ComparedMetric metric, double? percentOfBaseline = null)
    {
        var median = VerdictOn(itemKey, "median")?.Call;
        var p95 = VerdictOn(itemKey, "p95")?.Call;
        var p99 = VerdictOn(itemKey, "p99")?.Call;
        var agreed = median == p95 && p95 == p99 && median is VerdictCall.Faster or VerdictCall.Slower ? median : null;
        var higherIsBetter = metric == ComparedMetric.Throughput;
        var movedAsCalled = percentOfBaseline is { } percent && agreed is { } call
            && (call == VerdictCall.Slower) == (higherIsBetter ? percent < 100 : percent > 100) && percent != 100;
        return metric switch
        {
            ComparedMetric.Median => median,
            ComparedMetric.P95 => p95,
            ComparedMetric.P99 => p99,
            ComparedMetric.Errors => null,
            _ => movedAsCalled ? agreed : null,
        };
    }

    /// <summary>The permalink of this comparison with another baseline (or latency basis).</summary>
    public string LinkWithBaseline(string baseline, LatencyBasis? basis = null, GroupPick? pick = null) =>
        $"/compare?items={Uri.EscapeDataString(string.Join(",", Comparison!.Items.Select(i => i.Key)))}&baseline={Uri.EscapeDataString(baseline)}{LatencyQuery(basis ?? Basis)}{MarginQuery}{PickQuery(pick ?? Pick)}";

    /// <summary>Whether some item is a group of runs, so that the page offers pooled or best of the group.</summary>
    public bool HasGroups => Comparison?.Items.Any(i => ComparedItem.GroupParts(i.Key).Length > 1) == true;

    public string CsvLink => ApiLink + "&format=csv";

    public string ApiLink => $"/api/compare?items={Uri.EscapeDataString(string.Join(",", Comparison!.Items.Select(i => i.Key)))}&baseline={Uri.EscapeDataString(Comparison.BaselineKey)}{LatencyQuery(Basis)}{MarginQuery}{PickQuery(Pick)}";

    static string PickQuery(GroupPick pick) => GroupPicks.Name(pick) is { } name ? "&pick=" + name : "";

    string MarginQuery => Comparison!.Margin == Verdicts.DefaultMargin ? "" : "&margin=" + (Comparison.Margin * 100).ToString("0.###", System.Globalization.CultureInfo.InvariantCulture);

    static string LatencyQuery(LatencyBasis basis) => LatencyBasisQuery.Name(basis) is { } name ? "&latency=" + name : "";
}
