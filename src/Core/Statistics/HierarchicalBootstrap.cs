using MathNet.Numerics.Distributions;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The relative change in a percentile between two groups of separate runs (A B A B … queued alternately),
/// with an interval that includes the variation between runs: JIT, GC, CPU frequency, neighbours, the
/// service's drift. A side's figure is the mean of its runs' percentiles. Each resample draws the side's runs
/// with replacement, then resamples each drawn run's requests (its percentile drawn directly, as
/// <see cref="Bootstrap"/> does), and averages. With a handful of runs a side that percentile interval is too
/// narrow (drawing k of k runs with replacement shrinks their variance by (k − 1)/k, and its quantiles are the
/// normal's where Student's t with the runs' degrees of freedom applies): 3 runs a side called 9 of 60 A/A pairs
/// significant. So the interval is expanded around the estimate, in log terms, by √(k/(k − 1)) · t/z with k
/// the smaller side's runs and ka + kb − 2 degrees of freedom (an expanded percentile interval). Wide with
/// two or three runs a side, and honestly so: that is all the evidence about run-to-run variation there is.
/// Deterministic for a seed.
/// </summary>
public static class HierarchicalBootstrap
{
    /// <param name="baseline">Each baseline run's answered latencies, sorted ascending.</param>
    /// <param name="candidate">Each candidate run's, sorted ascending.</param>
    public static QuantileChange? Change(IReadOnlyList<IReadOnlyList<long>> baseline, IReadOnlyList<IReadOnlyList<long>> candidate, int permille,
        int resamples = Bootstrap.DefaultResamples, int seed = Bootstrap.DefaultSeed, double confidenceLevel = 0.95)
    {
        var a = baseline.Where(r => r.Count > 0).ToList();
        var b = candidate.Where(r => r.Count > 0).ToList();
        if (a.Count == 0 || b.Count == 0) return null;
        var qa = Estimate(a, permille)!.Value;
        var qb = Estimate(b, permille)!.Value;
        if (qa <= 0) return null;

        var random = new Random(seed);
        var changes = new double[resamples];
        for (var i = 0; i < resamples; i++)
            changes[i] = Resampled(b, permille, random) / Math.Max(1, Resampled(a, permille, random)) - 1;
        Array.Sort(changes);
        var tail = (1 - confidenceLevel) / 2;
        var centre = Math.Log(qb / qa);
        var k = Math.Min(a.Count, b.Count);
        var expand = k < 2 ? 1 : Math.Sqrt(k / (k - 1.0))
            * StudentT.InvCDF(0, 1, Math.Max(1, a.Count + b.Count - 2), 1 - tail) / Normal.InvCDF(0, 1, 1 - tail);
        double Expanded(double change) => Math.Exp(centre + (Math.Log(1 + change) - centre) * expand) - 1;
        return new QuantileChange(permille, (long)Math.Round(qa), (long)Math.Round(qb), qb / qa - 1,
            Expanded(changes[(int)Math.Floor(tail * (resamples - 1))]), Expanded(changes[(int)Math.Ceiling((1 - tail) * (resamples - 1))]),
            confidenceLevel, resamples, seed) { Runs = (a.Count, b.Count) };
    }

    /// <summary>
    /// A side's figure: the mean of its runs' nearest-rank percentiles (runs without answers left out), or null
    /// when none has any. The compare table shows a group's percentiles by this too, so its ratio is the verdict's.
    /// </summary>
    public static double? Estimate(IReadOnlyList<IReadOnlyList<long>> runs, int permille)
    {
        var answered = runs.Where(r => r.Count > 0).ToList();
        return answered.Count == 0 ? null : answered.Average(r => (double)Percentile.NearestRank(r, permille));
    }

    /// <summary>Runs drawn with replacement, each run's requests resampled: the mean of their percentiles.</summary>
    static double Resampled(List<IReadOnlyList<long>> runs, int permille, Random random)
    {
        double sum = 0;
        for (var i = 0; i < runs.Count; i++)
            sum += Bootstrap.ResampledPercentile(runs[random.Next(runs.Count)], permille, random);
        return sum / runs.Count;
    }
}
