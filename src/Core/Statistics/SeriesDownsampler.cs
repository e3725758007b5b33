namespace BenchDashboard.Core.Statistics;

/// <summary>One point of a sample-index chart.</summary>
public readonly record struct SeriesPoint(int Index, long LatencyNs);

/// <summary>
/// Shrinks a per-sample series for charting without hiding spikes: the series is cut into equal buckets of
/// consecutive samples and each bucket contributes its minimum and its maximum (in index order). A series
/// that already fits is returned whole.
/// </summary>
public static class SeriesDownsampler
{
    public static IReadOnlyList<SeriesPoint> MinMax(IReadOnlyList<SeriesPoint> series, int maxPoints)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxPoints, 2);
        if (series.Count <= maxPoints) return series;

        var buckets = maxPoints / 2;
        var result = new List<SeriesPoint>(buckets * 2);
        for (var b = 0; b < buckets; b++)
        {
            var start = (int)((long)b * series.Count / buckets);
            var end = (int)((long)(b + 1) * series.Count / buckets);
            SeriesPoint min = series[start], max = series[start];
            for (var i = start + 1; i < end; i++)
            {
                if (series[i].LatencyNs < min.LatencyNs) min = series[i];
                if (series[i].LatencyNs > max.LatencyNs) max = series[i];
            }
            if (min.Index == max.Index) { result.Add(min); continue; }
            result.Add(min.Index < max.Index ? min : max);
            result.Add(min.Index < max.Index ? max : min);
        }
        return result;
    }
}
