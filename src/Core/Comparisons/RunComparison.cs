using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// Two or more items side by side: seed 000's table (each figure as a percentage of the baseline), a
/// bootstrap verdict on median and p95 for each item against the baseline, and every parameter or
/// environment field that differs, with warnings when more than one thing changed.
/// </summary>
public sealed record RunComparison(
    IReadOnlyList<ComparedItem> Items, string BaselineKey, IReadOnlyList<ComparisonRow> Rows,
    IReadOnlyList<Verdict> Verdicts, IReadOnlyList<FieldDifference> Differences, IReadOnlyList<string> Warnings, int Seed)
{
    /// <param name="shownParameters">The parameters JSON as the reader may see it; the identity for tests and administrators.</param>
    public static RunComparison Build(IReadOnlyList<ComparedItem> items, string baselineKey, int seed = Bootstrap.DefaultSeed, Func<string, string>? shownParameters = null)
    {
        var baseline = items.Single(i => i.Key == baselineKey);
        var rows = BaselineComparison.Compare(items.Select(i => (i.Key, i.Statistics)).ToList(), baselineKey);
        var baseLatencies = baseline.SortedLatencies;

        var verdicts = new List<Verdict>();
        foreach (var item in items.Where(i => i.Key != baselineKey))
        {
            var latencies = item.SortedLatencies;
            foreach (var (metric, permille) in Comparisons.Verdicts.Metrics)
                if (Bootstrap.ChangeOfSorted(baseLatencies, latencies, permille, seed: seed) is { } change)
                    verdicts.Add(new Verdict(item.Key, metric, change, Comparisons.Verdicts.Describe(change)));
        }

        var differences = FieldDifferences.Between(items, shownParameters ?? (json => json));
        return new RunComparison(items, baselineKey, rows, verdicts, differences, Warn(items, differences), seed);
    }

    /// <summary>Below this process age at the start of a run, tiered JIT compilation is likely still going on.</summary>
    public const long YoungProcessMs = 30_000;

    static List<string> Warn(IReadOnlyList<ComparedItem> items, IReadOnlyList<FieldDifference> differences)
    {
        var warnings = new List<string>();
        var platform = differences.Where(d => FieldDifferences.PlatformFields.Contains(d.Field)).Select(d => d.Field).ToList();
        if (platform.Count > 0)
            warnings.Add($"The runs did not run on the same platform ({string.Join(", ", platform)}): a difference may come from the machine, not the setting.");
        var settings = differences.Where(d => d.Field != "series").ToList();
        if (settings.Count > 1)
            warnings.Add($"More than one thing differs ({string.Join(", ", settings.Select(d => d.Field))}): the results cannot tell which of them made the difference.");
        if (items.Any(i => i.Run.Status != RunStatus.Completed))
            warnings.Add("Not every run completed: a cancelled, failed or unfinished run has fewer samples than asked for.");
        var young = items.Select(i => (i.Label, Uptime: i.Run.EnvironmentJson is { } e ? Json.Deserialize<EnvironmentSnapshot>(e).ProcessUptimeMs : null))
            .Where(i => i.Uptime < YoungProcessMs).Select(i => $"{i.Label} ({i.Uptime / 1000.0:N1} s)").Distinct().ToList();
        if (young.Count > 0)
            warnings.Add($"Started soon after its runner process did: {string.Join(", ", young)}. .NET compiles hot code again, faster, during a process's first seconds, so such a run measures the client (and an in-process target) slower than a warm process would. Use warm-up requests or compare runs of a warm process.");
        if (items.Any(i => i.SortedLatencies.Count < 30))
            warnings.Add("An item has fewer than 30 answered requests: its verdict rests on very little.");
        return warnings;
    }
}
