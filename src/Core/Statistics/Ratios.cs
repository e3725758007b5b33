using System.Globalization;

namespace BenchDashboard.Core.Statistics;

/// <summary>Ratios and fractions in the words every page, report and notice uses.</summary>
public static class Ratios
{
    /// <summary>"1.14×", "26.0×": two decimals below 10×, so a 2 % change still shows.</summary>
    public static string Times(double ratio) =>
        (double.IsFinite(ratio) ? ratio.ToString(ratio < 10 ? "0.00" : ratio < 100 ? "0.0" : "#,0", CultureInfo.InvariantCulture) : "∞") + "×";

    /// <summary>"2 %", "0.5 %", "12 %".</summary>
    public static string Percent(double fraction) => (fraction * 100).ToString("0.#", CultureInfo.InvariantCulture) + " %";

    /// <summary>
    /// A relative change (after ÷ before − 1) as "1.21× slower" or "1.21× faster", its interval in the same direction
    /// ("99.9 % interval 1.10× to 1.33×"): a ratio reads the same way for small and large changes.
    /// </summary>
    public static string Change(double change, double lower, double upper, double confidenceLevel)
    {
        var level = (confidenceLevel * 100).ToString("0.#", CultureInfo.InvariantCulture);
        return change < 0
            ? $"{Times(1 / (1 + change))} faster ({level} % interval {Times(1 / (1 + upper))} to {Times(1 / (1 + lower))})"
            : $"{Times(1 + change)} slower ({level} % interval {Times(1 + lower)} to {Times(1 + upper)})";
    }
}
