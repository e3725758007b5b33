namespace BenchDashboard.Core.Comparisons;

/// <summary>
/// How a group of repeated runs ("12+14+16") stands for its setting in a comparison.
/// </summary>
public enum GroupPick
{
    /// <summary>All the runs' requests together, with the variation between runs in each verdict (the default).</summary>
    Pooled,

    /// <summary>
    /// The run with the lowest median shows in the table, as a best-of-several-runs comparison takes it: it hides an
    /// unlucky run (a GC pause, a noisy neighbour) at the price of favouring luck. The verdict still weighs all the
    /// group's runs and the variation between them.
    /// </summary>
    Best,
}

public static class GroupPicks
{
    public const string Message = "pick is \"pooled\" (all runs of a group together) or \"best\" (the run with the lowest median).";

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
