using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// One row of seed 003's table: the measured samples that started within [StartNs, EndNs) of the run's first
/// measured sample. Latency figures rank the answered ones (nearest rank); null when none was answered.
/// </summary>
public sealed record TimeWindow(
    int Number, long StartNs, long EndNs, int Count, int Errors,
    double? MeanNs, long? MinNs, long? P50Ns, long? P80Ns, long? P90Ns, long? P95Ns, long? P99Ns, long? MaxNs)
{
    /// <summary>Measured requests per second in the window (every one, errors included).</summary>
    public double PerSecond => Count / ((EndNs - StartNs) / 1e9);

    public double ErrorsPerSecond => Errors / ((EndNs - StartNs) / 1e9);
}

public static class TimeWindows
{
    /// <summary>Above this many windows the length is too short to read as a table.</summary>
    public const int MaxWindows = 1000;

    /// <summary>Window lengths offered for a run lasting <paramref name="elapsedNs"/>: 10 min like seed 003 when it fits.</summary>
    public static readonly int[] LengthsSeconds = [1, 5, 10, 30, 60, 300, 600, 1800, 3600];

    /// <summary>The longest offered length that still gives at least <paramref name="windows"/> windows (else the shortest).</summary>
    public static int DefaultLengthSeconds(long elapsedNs, int windows = 6) =>
        LengthsSeconds.LastOrDefault(s => elapsedNs / (s * 1_000_000_000L) >= windows, LengthsSeconds[0]);

    public static IReadOnlyList<TimeWindow> Build(IReadOnlyList<Sample> samples, long windowNs)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(windowNs, 1);
        var measured = samples.Where(s => !s.IsWarmup).ToList();
        if (measured.Count == 0) return [];
        var origin = measured.Min(s => s.OffsetNs);
        var count = (measured.Max(s => s.OffsetNs) - origin) / windowNs + 1;
        if (count > MaxWindows) throw new ArgumentException($"That gives {count:N0} windows; choose a length that gives at most {MaxWindows:N0}.", nameof(windowNs));

        var byWindow = measured.GroupBy(s => (s.OffsetNs - origin) / windowNs).ToDictionary(g => g.Key, g => g.ToList());
        var rows = new List<TimeWindow>((int)count);
        for (var w = 0L; w < count; w++)
        {
            var inWindow = byWindow.GetValueOrDefault(w) ?? [];
            var latencies = inWindow.Where(s => !s.Error.IsTransportError()).Select(s => s.LatencyNs).ToArray();
            Array.Sort(latencies);
            long? P(int permille) => latencies.Length == 0 ? null : Percentile.NearestRank(latencies, permille);
            rows.Add(new TimeWindow((int)w + 1, w * windowNs, (w + 1) * windowNs, inWindow.Count, inWindow.Count(s => s.Error != ErrorKind.None),
                latencies.Length == 0 ? null : latencies.Average(v => (double)v), latencies.Length == 0 ? null : latencies[0],
                P(500), P(800), P(900), P(950), P(990), latencies.Length == 0 ? null : latencies[^1]));
        }
        return rows;
    }
}
