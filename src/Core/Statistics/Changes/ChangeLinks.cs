namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>Where a change can be looked at: the compare page, the runs before it as one group against the runs after it.</summary>
public static class ChangeLinks
{
    /// <summary>At most this many runs a side: the compare page's own limit for a group.</summary>
    const int GroupRuns = 20;

    public static string Compare(ConfirmedChange c) => Compare(c.BeforeRunIds, c.AfterRunIds);

    public static string Compare(IReadOnlyList<long> before, IReadOnlyList<long> after) =>
        "/compare?items=" + Uri.EscapeDataString(Group(before.TakeLast(GroupRuns)) + "," + Group(after.Take(GroupRuns)));

    static string Group(IEnumerable<long> runs) => string.Join("+", runs);
}
