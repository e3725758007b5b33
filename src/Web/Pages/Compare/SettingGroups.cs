using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Web.Pages.Compare;

/// <summary>
/// Ticked runs as the compare page's items: runs of the same setting (kind, parameters and series alike) become
/// one group, "12+14+16", in the order first ticked. So ticking 3 settings × 3 runs compares 3 groups, not 9 items.
/// Keys already grouped, or naming runs that do not exist, are kept as given (the comparison reports them).
/// </summary>
public static class SettingGroups
{
    public static List<string> Of(IReadOnlyList<string> keys, IReadOnlyDictionary<long, Run> runs)
    {
        var groups = new List<(string? Setting, List<string> Keys)>();
        foreach (var key in keys)
        {
            var setting = ComparedItem.GroupParts(key) is [var single] && ComparedItem.TryParseKey(single, out var id, out var series)
                && runs.TryGetValue(id, out var run) ? $"{run.Kind}\n{run.ParametersJson}\n{series}" : null;
            var existing = setting is null ? default : groups.FirstOrDefault(g => g.Setting == setting);
            if (existing.Keys is { } same) { if (!same.Contains(key)) same.Add(key); }
            else groups.Add((setting, [key]));
        }
        return groups.Select(g => string.Join("+", g.Keys)).ToList();
    }

    /// <summary>The run ids a list of keys names ("12/A+14/A" names 12 and 14).</summary>
    public static IEnumerable<long> RunIds(IEnumerable<string> keys) =>
        keys.SelectMany(ComparedItem.GroupParts).Select(k => ComparedItem.TryParseKey(k, out var id, out _) ? id : 0).Where(id => id > 0).Distinct();
}
