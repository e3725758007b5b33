namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The one percentile definition used everywhere: <b>nearest rank</b>. For n sorted values and a percentile
/// p in (0, 100], the result is the value at 1-based rank ⌈p/100 · n⌉. It is always one of the measured
/// values (never interpolated) and, because the rank never decreases as p grows, a ladder computed from
/// one sorted array can never be non-monotone (seed 000's go-wrk printed p99 below the median).
/// Percentiles are given in tenths of a percent (p99.9 = 999) so the rank is computed in exact integers:
/// floating point would make ⌈0.99 · 100⌉ depend on rounding.
/// </summary>
public static class Percentile
{
    /// <summary>Nearest-rank percentile of ascending-sorted values; <paramref name="permille"/> in 1..1000.</summary>
    public static long NearestRank(IReadOnlyList<long> sortedAscending, int permille)
    {
        if (sortedAscending.Count == 0) throw new ArgumentException("No values.", nameof(sortedAscending));
        return sortedAscending[Rank(sortedAscending.Count, permille) - 1];
    }

    /// <summary>The 1-based nearest rank of a percentile among <paramref name="n"/> values: ⌈permille · n / 1000⌉, at least 1.</summary>
    public static int Rank(int n, int permille)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(permille, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(permille, 1000);
        return (int)((permille * (long)n + 999) / 1000);
    }

    public static long NearestRank(ReadOnlySpan<long> sortedAscending, int permille)
    {
        if (sortedAscending.IsEmpty) throw new ArgumentException("No values.", nameof(sortedAscending));
        ArgumentOutOfRangeException.ThrowIfLessThan(permille, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(permille, 1000);
        var n = (long)sortedAscending.Length;
        var rank = (permille * n + 999) / 1000; // ⌈permille · n / 1000⌉, at least 1
        return sortedAscending[(int)rank - 1];
    }
}
