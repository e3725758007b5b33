namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Where the series settles: drop the first <see cref="Samples"/> values. <see cref="IsReliable"/> is false
/// when the best cut is the last one searched (half the series): the level was still changing halfway
/// through, so the run never reached a steady state or is too short to tell.
/// </summary>
public sealed record WarmupEstimate(int Samples, int Count, double SteadyMeanNs, bool IsReliable);

/// <summary>
/// MSER-5 (White, 1997; Franklin and White, 2008): average the series in batches of 5, and choose the
/// number of leading batches d that minimises the marginal standard error of the mean of what remains,
/// Σ(Yᵢ − Ȳ_d)² / (m − d)², for d up to m / 2. (Beyond half, the statistic is dominated by the last few
/// batches, whose variance is small by chance: the usual rule limits the search to the first half.)
/// Suffix sums make it O(n).
/// </summary>
public static class WarmupDetector
{
    public const int BatchSize = 5;

    /// <param name="series">Latencies in the order the requests started.</param>
    public static WarmupEstimate? Detect(IReadOnlyList<long> series)
    {
        var m = series.Count / BatchSize;
        if (m < 4) return null;

        // Batch means in ms, centred on their overall mean, so the sums of squares keep their precision.
        var batches = new double[m];
        for (var j = 0; j < m; j++)
        {
            double sum = 0;
            for (var i = 0; i < BatchSize; i++) sum += series[j * BatchSize + i];
            batches[j] = sum / BatchSize / 1e6;
        }
        var centre = batches.Average();

        double suffixSum = 0, suffixSquares = 0, best = double.MaxValue;
        var bestD = 0;
        var statistic = new double[m];
        for (var j = m - 1; j >= 0; j--)
        {
            var y = batches[j] - centre;
            suffixSum += y;
            suffixSquares += y * y;
            var remaining = m - j;
            if (remaining < 2) continue;
            statistic[j] = (suffixSquares - suffixSum * suffixSum / remaining) / ((double)remaining * remaining);
        }
        var half = m / 2;
        for (var d = 0; d <= half; d++)
            if (statistic[d] < best) { best = statistic[d]; bestD = d; }

        var cut = bestD * BatchSize;
        var steadyMeanNs = batches.Skip(bestD).Average() * 1e6;
        return new WarmupEstimate(cut, series.Count, steadyMeanNs, IsReliable: bestD < half);
    }
}
