using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// Two or more items side by side: the percentage table (each figure as a percentage of the baseline), a
/// verdict on median and p95 for each item against the baseline, and every parameter or environment field
/// that differs, with warnings when more than one thing changed. Each verdict's interval includes the
/// variation its evidence allows (<see cref="NoiseModel"/>): interleaved variants of one run are compared by a
/// block bootstrap, groups of separate runs by a hierarchical one, single runs by their requests widened to the
/// spread of identical earlier runs, and without such a history no difference is called.
/// </summary>
public sealed record RunComparison(
    IReadOnlyList<ComparedItem> Items, string BaselineKey, IReadOnlyList<ComparisonRow> Rows,
    IReadOnlyList<Verdict> Verdicts, IReadOnlyList<FieldDifference> Differences, IReadOnlyList<string> Warnings, int Seed, double Margin = Comparisons.Verdicts.DefaultMargin)
{
    /// <param name="shownParameters">The parameters JSON as the reader may see it; the identity for tests and administrators.</param>
    /// <param name="margin">Within ± this relative change an interval that lies inside it is called equivalent.</param>
    public static RunComparison Build(IReadOnlyList<ComparedItem> items, string baselineKey, int seed = Bootstrap.DefaultSeed,
        Func<string, string>? shownParameters = null, double margin = Comparisons.Verdicts.DefaultMargin)
    {
        var baseline = items.Single(i => i.Key == baselineKey);
        var rows = BaselineComparison.Compare(items.Select(i => (i.Key, FiguresOf(i))).ToList(), baselineKey);

        var verdicts = new List<Verdict>();
        foreach (var item in items.Where(i => i.Key != baselineKey))
            foreach (var (metric, permille) in Comparisons.Verdicts.Metrics)
                if (Judge(baseline, item, metric, permille, seed, margin) is { } verdict)
                    verdicts.Add(verdict);

        var differences = FieldDifferences.Between(items, shownParameters ?? (json => json));
        return new RunComparison(items, baselineKey, rows, verdicts, differences, Warn(items, differences), seed, margin);
    }

    /// <summary>
    /// An item's figures for the table. A group's percentiles are the mean of its runs' (each run's nearest-rank
    /// percentile), the estimate its verdict rests on, so that the ratio in the table is the verdict's: pooling the
    /// requests, or taking the best run, gave a second figure for the same median. Counts, times and rates are the
    /// runs' together.
    /// </summary>
    public static IReadOnlyDictionary<ComparedMetric, double?> FiguresOf(ComparedItem item)
    {
        var values = BaselineComparison.ValuesOf(item.Statistics);
        if (item.RunLatencies is not { Count: >= 2 } runs) return values;
        var figures = new Dictionary<ComparedMetric, double?>(values);
        foreach (var (metric, permille) in PercentileMetrics) figures[metric] = HierarchicalBootstrap.Estimate(runs, permille);
        return figures;
    }

    static readonly (ComparedMetric Metric, int Permille)[] PercentileMetrics =
        [(ComparedMetric.Median, 500), (ComparedMetric.P90, 900), (ComparedMetric.P95, 950), (ComparedMetric.P99, 990)];

    /// <summary>One item against the baseline on one percentile, by the strongest noise model their evidence allows.</summary>
    static Verdict? Judge(ComparedItem baseline, ComparedItem item, string metric, int permille, int seed, double margin)
    {
        var requestsOnly = Bootstrap.ChangeOfSorted(baseline.SortedLatencies, item.SortedLatencies, permille, seed: seed);
        if (requestsOnly is null) return null;
        var (noise, change, spread) = Evidence(baseline, item, permille, seed, requestsOnly);
        var call = Comparisons.Verdicts.Call(change, noise, margin);
        return new Verdict(item.Key, metric, change, noise, call, Comparisons.Verdicts.Describe(change, call, margin),
            Comparisons.Verdicts.Explain(noise, change, spread), requestsOnly);
    }

    static (NoiseModel, QuantileChange, RunToRunSpread?) Evidence(ComparedItem baseline, ComparedItem item, int permille, int seed, QuantileChange requestsOnly)
    {
        // Only two series that took turns with each other pair their turns: a cache run's A/write and B/read-same did not.
        if (baseline.GroupRuns is null && item.GroupRuns is null && baseline.Run.Id == item.Run.Id && baseline.TookTurnsWith?.Contains(item.Series!) == true
            && baseline.Ordered is { } a && item.Ordered is { } b && BlockBootstrap.Change(a, b, permille, seed) is { } interleaved)
            return (NoiseModel.Interleaved, interleaved, null);
        if (baseline.RunLatencies is { Count: >= 2 } ra && item.RunLatencies is { Count: >= 2 } rb
            && HierarchicalBootstrap.Change(ra, rb, permille, seed: seed) is { } grouped)
            return (NoiseModel.RunGroups, grouped, null);
        // One side a group and the other one run: the group's figure is the mean of its runs' (the table's), so the
        // change is taken the same way, its runs resampled, rather than from the pooled requests.
        if ((baseline.RunLatencies is { Count: >= 2 } || item.RunLatencies is { Count: >= 2 })
            && HierarchicalBootstrap.Change(baseline.RunLatencies ?? [baseline.SortedLatencies], item.RunLatencies ?? [item.SortedLatencies], permille, seed: seed) is { } mixed)
            requestsOnly = mixed;
        // Two sides of the same settings share one history (the same list): counted once.
        var histories = new[] { baseline.History, item.History }.Where(h => h is not null)
            .Select(h => h!.GetValueOrDefault(permille) ?? []).Distinct(ReferenceEqualityComparer.Instance).Cast<IReadOnlyList<double>>();
        if (RunToRunSpread.Of(histories) is { } spread)
            return (NoiseModel.RunHistory, spread.Widen(requestsOnly), spread);
        return (NoiseModel.RequestsOnly, requestsOnly, null);
    }

    /// <summary>Below this process age at the start of a run, tiered JIT compilation is likely still going on.</summary>
    public const long YoungProcessMs = 30_000;

    static List<string> Warn(IReadOnlyList<ComparedItem> items, IReadOnlyList<FieldDifference> differences)
    {
        var warnings = new List<string>();
        var platform = differences.Where(d => FieldDifferences.PlatformFields.Contains(d.Field)).Select(d => d.Field).ToList();
        if (platform.Count > 0)
            warnings.Add($"The runs did not run on the same platform ({string.Join(", ", platform)}): a difference may come from the machine, not the setting.");
        var settings = differences.Where(d => d.Field is not ("series" or "setting")).ToList();
        if (settings.Count > 1)
            warnings.Add($"More than one thing differs ({string.Join(", ", settings.Select(d => d.Field))}): the results cannot tell which of them made the difference.");
        if (items.Any(i => i.Run.Status != RunStatus.Completed))
            warnings.Add("Not every run completed: a cancelled, failed or unfinished run has fewer samples than asked for.");
        var young = items.Select(i => (i.Label, Uptime: i.Run.EnvironmentJson is { } e ? Json.Deserialize<EnvironmentSnapshot>(e).ProcessUptimeMs : null))
            .Where(i => i.Uptime < YoungProcessMs).Select(i => $"{i.Label} ({i.Uptime / 1000.0:N1} s)").Distinct().ToList();
        // Series of one run took turns in the same young process: its settling hit them alike, so only separate runs are warned about.
        if (young.Count > 0 && items.SelectMany(i => i.Runs).Select(r => r.Id).Distinct().Count() > 1)
            warnings.Add($"Started soon after its runner process did: {string.Join(", ", young)}. .NET compiles hot code again, faster, during a process's first seconds, so such a run measures the client (and an in-process target) slower than a warm process would. Use warm-up requests or compare runs of a warm process.");
        if (items.Any(i => i.SortedLatencies.Count < 30))
            warnings.Add("An item has fewer than 30 answered requests: its verdict rests on very little.");
        return warnings;
    }
}
