using MathNet.Numerics.Distributions;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// How much a percentile varies between identical runs, learned from a benchmark's own history: runs of the
/// same kind with the same parameters. The spread is the standard deviation s of the log of the percentile
/// across those runs (pooled when each side has a history), with n − 1 degrees of freedom per history. Two new
/// single runs then differ by chance, at the confidence level, by up to t · s · √2 in log terms (a prediction
/// interval for the difference of two draws; Student's t, because s comes from a handful of runs).
/// </summary>
/// <param name="Runs">History runs the spread was learned from.</param>
/// <param name="LogSd">s: the pooled standard deviation of ln(percentile).</param>
/// <param name="HalfWidth">t · s · √2: how far apart, in ln terms, two identical single runs may land.</param>
public sealed record RunToRunSpread(int Runs, double LogSd, double HalfWidth)
{
    /// <summary>Fewer identical runs than this say too little about their spread to judge a difference by.</summary>
    public const int MinimumRuns = 3;

    /// <param name="histories">For each side that has one, the percentile of each of its identical earlier runs.</param>
    public static RunToRunSpread? Of(IEnumerable<IReadOnlyList<double>> histories, double confidenceLevel = 0.95)
    {
        double squares = 0;
        int runs = 0, freedom = 0;
        foreach (var history in histories)
        {
            var logs = history.Where(v => v > 0).Select(v => Math.Log(v)).ToList();
            if (logs.Count < 2) continue;
            var mean = logs.Average();
            squares += logs.Sum(l => (l - mean) * (l - mean));
            runs += logs.Count;
            freedom += logs.Count - 1;
        }
        if (runs < MinimumRuns || freedom < 2) return null;
        var sd = Math.Sqrt(squares / freedom);
        var t = StudentT.InvCDF(0, 1, freedom, 1 - (1 - confidenceLevel) / 2);
        return new RunToRunSpread(runs, sd, t * sd * Math.Sqrt(2));
    }

    /// <summary>
    /// The request-level interval of a change between two single runs, widened to at least ± the run-to-run
    /// half-width around its estimate: the history already holds the request sampling noise of runs this size,
    /// so whichever is wider is the honest interval.
    /// </summary>
    public QuantileChange Widen(QuantileChange requestLevel)
    {
        var centre = Math.Log(1 + requestLevel.Change);
        var lower = Math.Min(Math.Log(1 + requestLevel.Lower), centre - HalfWidth);
        var upper = Math.Max(Math.Log(1 + requestLevel.Upper), centre + HalfWidth);
        return requestLevel with { Lower = Math.Exp(lower) - 1, Upper = Math.Exp(upper) - 1 };
    }
}
