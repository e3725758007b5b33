using System.Globalization;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>An item's verdict against the baseline on one percentile.</summary>
public sealed record Verdict(string ItemKey, string Metric, QuantileChange Change, string Text);

public static class Verdicts
{
    public static readonly (string Metric, int Permille)[] Metrics = [("median", 500), ("p95", 950)];

    /// <summary>
    /// "1.14× faster (95 % CI 1.10× to 1.18×)", "2.60× slower (…)", or "no significant difference (95 % CI 0.98×
    /// to 1.02×)": the candidate's percentile against the baseline's, as a ratio that reads the same way for
    /// small and large changes (the table beside it used to say 2,601.6 % of the baseline above "2501.6 % slower").
    /// </summary>
    public static string Describe(QuantileChange c)
    {
        var level = (c.ConfidenceLevel * 100).ToString("0", CultureInfo.InvariantCulture);
        if (!c.IsSignificant)
            return $"no significant difference ({level} % CI {Times(1 + c.Lower)} to {Times(1 + c.Upper)})";
        // The word follows the interval (which excludes no change); the point estimate of a discrete percentile
        // can fall just outside it, so it is shown clamped into the interval.
        var change = Math.Clamp(c.Change, c.Lower, c.Upper);
        return c.Upper < 0
            ? $"{Times(1 / (1 + change))} faster ({level} % CI {Times(1 / (1 + c.Upper))} to {Times(1 / (1 + c.Lower))})"
            : $"{Times(1 + change)} slower ({level} % CI {Times(1 + c.Lower)} to {Times(1 + c.Upper)})";
    }

    /// <summary>"1.14×", "26.0×": two decimals below 10×, so a 2 % change still shows.</summary>
    public static string Times(double ratio) =>
        (double.IsFinite(ratio) ? ratio.ToString(ratio < 10 ? "0.00" : ratio < 100 ? "0.0" : "#,0", CultureInfo.InvariantCulture) : "∞") + "×";
}
