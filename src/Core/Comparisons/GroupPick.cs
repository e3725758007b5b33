namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// How a group of repeated runs ("12+14+16") was asked to stand for its setting, as addresses and repeats name it.
/// Both read the same now: a group is compared by all its runs (its percentiles the mean of its runs', the verdict's
/// estimate), so that the table's ratio and the verdict's are one number. The best run alone hid an unlucky run at
/// the price of favouring luck, and beside a verdict over all runs it gave a second ratio for the same median.
/// </summary>
public enum GroupPick
{
    /// <summary>All the runs of a group.</summary>
    Pooled,

    /// <summary>Asked for the best run; compared by all the runs, as <see cref="Pooled"/>.</summary>
    Best,
}

public static class GroupPicks
{
    public const string Message = "pick is \"pooled\" or \"best\"; either way a group is compared by all its runs.";

    /// <summary>The query's <c>pick</c>: absent or empty is pooled.</summary>
    public static bool TryParse(string? value, out GroupPick pick)
    {
        pick = GroupPick.Pooled;
        if (string.IsNullOrWhiteSpace(value)) return true;
        if (string.Equals(value.Trim(), "best", StringComparison.OrdinalIgnoreCase)) { pick = GroupPick.Best; return true; }
        return string.Equals(value.Trim(), "pooled", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>The query value, or null for the default.</summary>
    public static string? Name(GroupPick pick) => pick == GroupPick.Best ? "best" : null;
}
