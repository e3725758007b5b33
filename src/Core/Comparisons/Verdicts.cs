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
        // Faster is a negative change; say it as a positive "faster" with the interval the same way round.
        return c.Change < 0
            ? $"{Percent(-c.Change)} faster ({level} % CI {Percent(-c.Upper)} to {Percent(-c.Lower)})"
            : $"{Percent(c.Change)} slower ({level} % CI {Percent(c.Lower)} to {Percent(c.Upper)})";
    }

    static string Percent(double fraction) => (fraction * 100).ToString("0.0", CultureInfo.InvariantCulture) + " %";
    static string Signed(double fraction) => (fraction >= 0 ? "+" : "−") + Percent(Math.Abs(fraction));
}
