using System.Globalization;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>An item's verdict against the baseline on one percentile.</summary>
public sealed record Verdict(string ItemKey, string Metric, QuantileChange Change, string Text);

public static class Verdicts
{
    public static readonly (string Metric, int Permille)[] Metrics = [("median", 500), ("p95", 950)];

    /// <summary>"12.0 % faster (95 % CI 9.1 % to 15.2 %)" or "no significant difference (95 % CI −1.2 % to +2.3 %)".</summary>
    public static string Describe(QuantileChange c)
    {
        var level = (c.ConfidenceLevel * 100).ToString("0", CultureInfo.InvariantCulture);
        if (!c.IsSignificant)
            return $"no significant difference ({level} % CI {Signed(c.Lower)} to {Signed(c.Upper)})";
        // Faster is a negative change; say it as a positive "faster" with the interval the same way round. The
        // word follows the interval (which excludes zero); the point estimate of a discrete percentile can fall
        // just outside it, so it is shown clamped into the interval.
        var change = Math.Clamp(c.Change, c.Lower, c.Upper);
        return c.Upper < 0
            ? $"{Percent(-change)} faster ({level} % CI {Percent(-c.Upper)} to {Percent(-c.Lower)})"
            : $"{Percent(change)} slower ({level} % CI {Percent(c.Lower)} to {Percent(c.Upper)})";
    }

    static string Percent(double fraction) => (fraction * 100).ToString("0.0", CultureInfo.InvariantCulture) + " %";
    static string Signed(double fraction) => (fraction >= 0 ? "+" : "−") + Percent(Math.Abs(fraction));
}
