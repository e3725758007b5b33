using MathNet.Numerics.Statistics;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The relative change in a percentile between two variants that ran interleaved in one run (in rounds, the leader drawn each round),
/// with an interval that keeps what the run's time order holds. The two latency sequences are paired by
/// position (the j-th request of each was sent at about the same moment), cut into blocks of consecutive
/// positions, and each resample draws blocks with replacement, the same blocks for both variants (a moving
/// block bootstrap). Drift that hits both variants alike then moves both resampled percentiles together and
/// cancels in the ratio, and a slow stretch stays one stretch rather than being scattered as if every request
/// were independent (which is what made identical runs look "significant").
/// The block length is where the sequences stop being correlated: the first lag at which the autocorrelation
/// of both variants' log latencies falls below 2/√n (the usual bound for noise), at least 1 and at most n/20,
/// so that there are at least 20 blocks to draw from. Deterministic for a seed.
/// </summary>
public static class BlockBootstrap
{
    public const int DefaultResamples = 1000;

    /// <summary>Resamples cost O(n) each; above this much work in all, fewer are drawn (but never fewer than 200).</summary>
    const long WorkBudget = 100_000_000;

    const int MinBlocks = 20;
    const int MaxLag = 500;

    /// <param name="baseline">The baseline variant's answered latencies, in the order they were sent.</param>
    /// <param name="candidate">The candidate's, in the same order.</param>
    public static QuantileChange? Change(IReadOnlyList<long> baseline, IReadOnlyList<long> candidate, int permille,
        int seed = Bootstrap.DefaultSeed, double confidenceLevel = 0.95)
    {
        var n = Math.Min(baseline.Count, candidate.Count);
        if (n < 2 * MinBlocks) return null;
        var a = baseline.Take(n).Select(v => (double)v).ToArray();
        var b = candidate.Take(n).Select(v => (double)v).ToArray();
        var rank = Percentile.Rank(n, permille);
        var qa = OrderStatistic(a, rank);
        var qb = OrderStatistic(b, rank);
        if (qa <= 0) return null;

        var length = BlockLength(a, b);
        var resamples = (int)Math.Clamp(WorkBudget / (2L * n), 200, DefaultResamples);
        var random = new Random(seed);
        var blocks = (n + length - 1) / length;
        var ra = new double[n];
        var rb = new double[n];
        var changes = new double[resamples];
        for (var i = 0; i < resamples; i++)
        {
            var filled = 0;
            for (var k = 0; k < blocks && filled < n; k++)
            {
                var start = random.Next(n - length + 1);
                var take = Math.Min(length, n - filled);
                Array.Copy(a, start, ra, filled, take);
                Array.Copy(b, start, rb, filled, take);
                filled += take;
            }
            changes[i] = ArrayStatistics.OrderStatisticInplace(rb, rank) / Math.Max(1, ArrayStatistics.OrderStatisticInplace(ra, rank)) - 1;
        }
        Array.Sort(changes);
        var tail = (1 - confidenceLevel) / 2;
        return new QuantileChange(permille, (long)qa, (long)qb, qb / qa - 1,
            changes[(int)Math.Floor(tail * (resamples - 1))], changes[(int)Math.Ceiling((1 - tail) * (resamples - 1))],
            confidenceLevel, resamples, seed) { BlockLength = length };
    }

    /// <summary>The first lag at which neither sequence's log latencies are still correlated, within [1, n/20].</summary>
    public static int BlockLength(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        var n = Math.Min(a.Count, b.Count);
        var cap = Math.Max(1, Math.Min(n / MinBlocks, MaxLag));
        var bound = 2 / Math.Sqrt(n);
        var la = Centred(a, n);
        var lb = Centred(b, n);
        for (var lag = 1; lag <= cap; lag++)
            if (Autocorrelation(la, lag) < bound && Autocorrelation(lb, lag) < bound) return lag;
        return cap;
    }

    static double[] Centred(IReadOnlyList<double> values, int n)
    {
        var logs = new double[n];
        for (var i = 0; i < n; i++) logs[i] = Math.Log(Math.Max(1, values[i]));
        var mean = logs.Average();
        for (var i = 0; i < n; i++) logs[i] -= mean;
        return logs;
    }

    static double Autocorrelation(double[] x, int lag)
    {
        double lagged = 0, total = 0;
        for (var i = 0; i < x.Length; i++)
        {
            total += x[i] * x[i];
            if (i + lag < x.Length) lagged += x[i] * x[i + lag];
        }
        return total == 0 ? 0 : lagged / total;
    }

    /// <summary>The 1-based <paramref name="rank"/>-th smallest, without changing <paramref name="values"/>.</summary>
    static double OrderStatistic(double[] values, int rank) => ArrayStatistics.OrderStatisticInplace((double[])values.Clone(), rank);
}
