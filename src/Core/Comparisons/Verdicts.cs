using System.Globalization;
using BenchDashboard.Core.Statistics;
using static BenchDashboard.Core.Statistics.Ratios;

namespace BenchDashboard.Core.Comparisons;

/// <summary>An item's verdict against the baseline on one percentile.</summary>
/// <param name="Change">The change with the interval of <paramref name="Noise"/>.</param>
/// <param name="RequestsOnly">The same change with requests resampled as if independent: what verdicts used to rest on, shown for contrast.</param>
/// <param name="Explanation">Which variation the interval includes, in two sentences (<see cref="Verdicts.Explain"/>).</param>
public sealed record Verdict(string ItemKey, string Metric, QuantileChange Change, NoiseModel Noise, VerdictCall Call, string Text, string Explanation, QuantileChange? RequestsOnly = null);

public static class Verdicts
{
    /// <summary>The percentiles judged; the compare table colours each of these figures by its own verdict only.</summary>
    public static readonly (string Metric, int Permille)[] Metrics = [("median", 500), ("p95", 950), ("p99", 990)];

    /// <summary>Within ± this relative change, two items whose interval lies inside it are called equivalent.</summary>
    public const double DefaultMargin = 0.02;

    /// <summary>
    /// What the interval allows: "equivalent" when it lies inside ± <paramref name="margin"/>; "faster" or
    /// "slower" when it excludes no change and the noise model includes run-to-run variation (or the variants
    /// shared it, interleaved); "no clear difference" otherwise; "cannot tell" when the model is requests alone.
    /// </summary>
    public static VerdictCall Call(QuantileChange c, NoiseModel noise, double margin)
    {
        if (noise == NoiseModel.RequestsOnly) return VerdictCall.CannotTell;
        if (c.Lower >= -margin && c.Upper <= margin) return VerdictCall.Equivalent;
        if (c.Upper < 0) return VerdictCall.Faster;
        if (c.Lower > 0) return VerdictCall.Slower;
        return VerdictCall.NoClearDifference;
    }

    /// <summary>
    /// "1.14× faster (95 % CI 1.10× to 1.18×)", "2.60× slower (…)", "equivalent within ±2 % (95 % CI 0.99× to
    /// 1.01×)", "no clear difference (…)", or "cannot tell from one run a side (requests alone: 1.09× slower, …)":
    /// the candidate's percentile against the baseline's, as a ratio that reads the same way for small and large
    /// changes (the table beside it used to say 2,601.6 % of the baseline above "2501.6 % slower").
    /// </summary>
    public static string Describe(QuantileChange c, VerdictCall call, double margin)
    {
        var level = (c.ConfidenceLevel * 100).ToString("0", CultureInfo.InvariantCulture);
        var interval = $"{level} % CI {Times(1 + c.Lower)} to {Times(1 + c.Upper)}";
        return call switch
        {
            VerdictCall.Equivalent => $"equivalent within ±{Percent(margin)} ({interval})",
            VerdictCall.NoClearDifference => $"no clear difference ({interval})",
            VerdictCall.CannotTell => $"cannot tell from one run a side (requests alone: {Direction(c, level)}); no history of identical runs shows how far apart such runs land",
            _ => Direction(c, level),
        };
    }

    /// <summary>The change in words with its interval; the word follows the interval, so it is only for one that excludes no change.</summary>
    static string Direction(QuantileChange c, string level)
    {
        if (!c.IsSignificant) return $"no significant difference, {level} % CI {Times(1 + c.Lower)} to {Times(1 + c.Upper)}";
        // The ratio is the point estimate, the figure the compare table shows beside it (a discrete percentile's can
        // fall just outside its interval; clamping it into the interval made the row say two numbers).
        return c.Upper < 0
            ? $"{Times(1 / (1 + c.Change))} faster ({level} % CI {Times(1 / (1 + c.Upper))} to {Times(1 / (1 + c.Lower))})"
            : $"{Times(1 + c.Change)} slower ({level} % CI {Times(1 + c.Lower)} to {Times(1 + c.Upper)})";
    }

    /// <summary>"1.14× faster", "equivalent", "no clear difference", "cannot tell (one run a side)": a verdict in a table cell.</summary>
    public static string Short(Verdict verdict) => verdict.Call switch
    {
        VerdictCall.Faster or VerdictCall.Slower => verdict.Text.Split(" (")[0],
        VerdictCall.Equivalent => "equivalent",
        VerdictCall.NoClearDifference => "no clear difference",
        _ => "cannot tell (one run a side)",
    };

    /// <summary>
    /// A ratio to the baseline (this ÷ the baseline's) in a table cell, read as a finding only when the verdict calls a
    /// difference: "2.81× slower", "1.34× faster", "equivalent (within ±2 %)", "no clear difference", or the ratio
    /// "not judged" (no verdict: too few operations, or items that did not take turns).
    /// </summary>
    public static string RatioWords(double ratio, VerdictCall? call)
    {
        var words = ratio >= 1 ? $"{Times(ratio)} slower" : $"{Times(1 / ratio)} faster";
        return call switch
        {
            VerdictCall.Faster or VerdictCall.Slower => words,
            VerdictCall.Equivalent => $"equivalent (within ±{Percent(DefaultMargin)})",
            VerdictCall.NoClearDifference => "no clear difference",
            _ => words + ", not judged",
        };
    }

    /// <summary>Two sentences on which variation the interval includes, for the page under the verdicts.</summary>
    public static string Explain(NoiseModel noise, QuantileChange c, RunToRunSpread? spread = null) => noise switch
    {
        NoiseModel.Interleaved =>
            $"The variants ran interleaved in one run, so drift of the machine and of the service hit them alike. The interval resamples blocks of {c.BlockLength ?? 1:N0} consecutive rounds, the same blocks for both, which keeps that pairing and the run's own correlation; it leaves out what would differ between separate runs (another machine, another hour).",
        NoiseModel.RunGroups =>
            $"Each side is several separate runs ({c.Runs?.Baseline ?? 0} and {c.Runs?.Candidate ?? 0}). The interval resamples the runs and then the requests within each, so the variation between runs (JIT, GC, CPU frequency, neighbours, the service's drift) is in it; with few runs a side it is wide, and honestly so.",
        NoiseModel.RunHistory =>
            $"One run a side: the interval is at least as wide as the spread of {spread?.Runs ?? 0} earlier identical runs of these settings (two such runs land up to ±{Percent(Math.Exp(spread?.HalfWidth ?? 0) - 1)} apart by chance). The requests alone would give a narrower interval that leaves that variation out.",
        _ =>
            "One run a side and no history of identical runs: the requests' interval leaves out the variation between runs (JIT, GC, CPU frequency, neighbours, drift), which is often several percent, so no difference is called. Interleave the variants in one run, repeat the runs (A B A B), or compare once the benchmark has three or more identical runs.",
    };
}
