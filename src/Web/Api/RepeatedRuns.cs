using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Api;

/// <summary>
/// Queues a repeat (the API's <c>repeat</c> and the new-run form's) and names its groups and its comparison, so
/// that both answer the same link.
/// </summary>
public static class RepeatedRuns
{
    /// <param name="Groups">The runs' ids as compare items, one group per variant (and per series of a kind whose plain runs have series).</param>
    /// <param name="Compare">The compare page of this repeat.</param>
    public sealed record Queued(IReadOnlyList<Run> Runs, IReadOnlyList<string> Groups, string Compare);

    /// <summary>
    /// <c>Times</c> runs of the same parameters, or with <c>SeparateRuns</c> that many rounds of one plain run per
    /// variant, A B C A B C … (so that drift hits every setting alike). Nothing is queued when one is invalid.
    /// </summary>
    public static async Task<(Queued? Queued, IReadOnlyDictionary<string, string[]> Errors)> QueueAsync(
        RunQueue queue, IBenchmarkKind kind, object parameters, RepeatRequest repeat, int? agents, CancellationToken ct, Core.Agents.OnEach? onEach = null)
    {
        var variants = kind.SeparateVariants(parameters);
        if (repeat.SeparateRuns && variants.Count == 0)
            return (null, new Dictionary<string, string[]> { ["separateRuns"] = ["Runs of their own for each setting need variants: give at least two."] });
        // Checked whole first, so a bad variant is keyed as it was sent ("variants[1].url").
        if (await kind.ValidateAsync(parameters, ct) is { Count: > 0 } errors) return (null, errors);
        var order = repeat.SeparateRuns
            ? Enumerable.Range(0, repeat.Times).SelectMany(_ => variants).ToList()
            : Enumerable.Range(0, repeat.Times).Select(_ => (Name: "", Parameters: parameters)).ToList();
        var (runs, invalid) = await queue.EnqueueAllAsync(order.Select(o => o.Parameters).ToList(), ct, agents, onEach);
        if (runs.Count == 0) return (null, invalid);

        // A kind whose plain runs have series (cache phases) is grouped series by series: "12/write+14/write".
        var byVariant = order.Zip(runs).GroupBy(p => p.First.Name).Select(g => g.Select(p => p.Second.Id).ToList()).ToList();
        // Runs on each agent have a series per agent ("cfg0", "cfg0/write"): grouped by those.
        var planned = kind.PlannedSeries(order[0].Parameters);
        var series = ComparedItem.SeriesSuffixes(onEach is null ? planned : onEach.PlannedSeries(planned));
        var groups = series.SelectMany(s => byVariant.Select(ids => string.Join("+", ids.Select(id => $"{id}{s}")))).ToList();
        return (new Queued(runs, groups, CompareLink(repeat, runs, groups, byVariant.Count, variants.Count > 0)), invalid);
    }

    /// <summary>
    /// Settings as runs of their own: one group per setting (its first series). Variants taking turns in each run:
    /// one group per variant. One setting: the repeats side by side, which shows how far runs land apart by chance.
    /// </summary>
    static string CompareLink(RepeatRequest repeat, IReadOnlyList<Run> runs, IReadOnlyList<string> groups, int settings, bool hasVariants)
    {
        var items = repeat.SeparateRuns ? groups.Take(settings)
            : hasVariants ? groups
            : runs.Select(r => r.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        var pick = GroupPicks.Name(repeat.Pick) is { } name ? "&pick=" + name : "";
        return "/compare?items=" + Uri.EscapeDataString(string.Join(",", items.Take(ComparisonQueries.MaxItems))) + pick;
    }
}
