using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// One row of the time-window table: the measured samples that started within [StartNs, EndNs) of the run's first
/// measured sample. Latency figures rank the answered ones (nearest rank); null when none was answered.
/// The last window ends where the run did (its last answer), not at a whole window length: its rate is over
/// the time it really lasted, so a run that ends 0.2 s into a 1 s window does not look like a collapse.
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

    /// <summary>Below this many windows of the shortest offered length, the over-time charts use <see cref="FineLengthNs"/>.</summary>
    public const int FewWindows = 6;

    /// <summary>
    /// For a run too short for whole-second windows (a 0.47 s run has one): a sub-second length of 1, 2 or 5 ×
    /// 10ⁿ ms that gives 20 to 50 windows, so its over-time charts have a shape; null when 1 s windows do.
    /// </summary>
    public static long? FineLengthNs(long elapsedNs)
    {
        if (elapsedNs >= FewWindows * 1_000_000_000L) return null;
        var target = Math.Max(elapsedNs / 20.0, 1_000_000); // at least 1 ms
        var decade = Math.Pow(10, Math.Floor(Math.Log10(target)));
        var step = new[] { 1, 2, 5 }.Select(m => m * decade).Last(l => l <= target);
        return (long)Math.Min(step, 500_000_000);
    }

    public static IReadOnlyList<TimeWindow> Build(IReadOnlyList<Sample> samples, long windowNs)
    {
        var table = SampleTable.Of(samples);
        var measured = SampleTable.Where(table.AllRows(), r => !table.IsWarmup(r));
        return measured.Length == 0 ? [] : Build(table, measured, windowNs, new long[measured.Length]);
    }

    /// <param name="measured">The table's rows of measured samples only.</param>
    /// <param name="scratch">At least as long as <paramref name="measured"/>: the windows' latencies are sorted in place
    /// there, window by window, so several lengths over a million samples share one buffer instead of a list per window.</param>
    internal static IReadOnlyList<TimeWindow> Build(SampleTable t, int[] measured, long windowNs, long[] scratch)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(windowNs, 1);
        if (measured.Length == 0) return [];
        long origin = long.MaxValue, last = long.MinValue, end = long.MinValue;
        foreach (var r in measured)
        {
            origin = Math.Min(origin, t.OffsetNs(r));
            last = Math.Max(last, t.OffsetNs(r));
            end = Math.Max(end, t.OffsetNs(r) + t.LatencyNs(r));
        }
        var count = (last - origin) / windowNs + 1;
        if (count > MaxWindows) throw new ArgumentException($"That gives {count:N0} windows; choose a length that gives at most {MaxWindows:N0}.", nameof(windowNs));

        // Counting sort by window: each window's answered latencies end up side by side in scratch.
        var windows = (int)count;
        var counts = new int[windows];
        var errors = new int[windows];
        var answered = new int[windows + 1];
        foreach (var r in measured)
        {
            var w = (int)((t.OffsetNs(r) - origin) / windowNs);
            counts[w]++;
            if (t.Error(r) != ErrorKind.None) errors[w]++;
            if (!t.Error(r).IsTransportError()) answered[w + 1]++;
        }
        for (var w = 0; w < windows; w++) answered[w + 1] += answered[w];
        var next = (int[])answered.Clone();
        foreach (var r in measured)
            if (!t.Error(r).IsTransportError()) scratch[next[(int)((t.OffsetNs(r) - origin) / windowNs)]++] = t.LatencyNs(r);

        var rows = new List<TimeWindow>(windows);
        for (var w = 0; w < windows; w++)
        {
            var (from, length) = (answered[w], answered[w + 1] - answered[w]);
            var latencies = scratch.AsSpan(from, length);
            latencies.Sort();
            long? P(int permille) => length == 0 ? null : Percentile.NearestRank(scratch.AsSpan(from, length), permille);
            double? mean = null;
            if (!latencies.IsEmpty)
            {
                double sum = 0;
                foreach (var v in latencies) sum += v;
                mean = sum / latencies.Length;
            }
            // The run's elapsed time (RunStatistics) ends at its last answer: so does its last window, shorter than
            // the others when the run stopped inside it, a little longer when its last request ended after it.
            // The windows then tile the run exactly, and their rates add up to the run's.
            var endNs = w == windows - 1 ? Math.Max(end - origin, w * windowNs + 1) : (w + 1) * windowNs;
            rows.Add(new TimeWindow(w + 1, w * windowNs, endNs, counts[w], errors[w],
                mean, latencies.IsEmpty ? null : latencies[0], P(500), P(800), P(900), P(950), P(990), latencies.IsEmpty ? null : latencies[^1]));
        }
        return rows;
    }
}
