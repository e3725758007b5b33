using System.Diagnostics;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// The live figures of one run, kept as its samples are recorded: counts, errors by kind, latency histograms of
/// the whole run, of each series and of the current second, and every k-th sample for the live chart. A snapshot
/// is taken with each heartbeat and stored with the run (<see cref="LiveSnapshot"/>), so a viewer reads one row
/// instead of the samples.
/// <para>
/// <see cref="Add"/> runs on the measuring thread (with inline completions, the one thread of every connection),
/// so under its lock it only counts and swaps: it never allocates (but for a series' first sample) and never
/// reads a percentile. A closed second's histogram is swapped for a spare and queued; the run's and each series'
/// values go into interval histograms that <see cref="Snapshot"/> swaps for spares and adds into totals of its
/// own. Every percentile read, merge and reset is the snapshot's, outside that lock; it hands the cleared
/// histograms back as spares. Only with no spare left (no snapshot for a while) does adding read a closed
/// second's percentiles itself, as it always did before. Each histogram is 304 KiB: they are reused, never
/// dropped, about 6 plus 3 per series in all.
/// </para>
/// <para>
/// A series of whole iterations (a journey's "iteration", <see cref="Core.Benchmarks.SeriesBasis.Iterations"/>) is not
/// requests: its samples count only in its own row and in <see cref="LiveSnapshot.Iterations"/>, so the run's live
/// count, rate and percentiles are of requests, as its figures are once it ends.
/// </para>
/// </summary>
public sealed partial class LiveRunStats
{
    const int MaxPoints = 2000;
    static readonly int ErrorKinds = Enum.GetValues<ErrorKind>().Length;

    readonly Func<long> timestamp;
    readonly Func<string, bool>? isIterations;
    // The adding side: everything below is read and written under gate.
    readonly Lock gate = new();
    LiveHistogram second = new(), runInterval = new();
    readonly Stack<LiveHistogram> spares = new();
    readonly ClosedSeconds closed = new();
    readonly Dictionary<ErrorKind, int> errorsByKind = new(ErrorKinds); // sized for every kind: never grows
    readonly List<LivePoint> points = new(MaxPoints);
    readonly Dictionary<string, SeriesFigures> series = [];
    readonly List<SeriesFigures> seriesInOrder = [];
    readonly Dictionary<string, bool> iterationSeries = [];
    bool started;
    long start;
    int currentSecond, secondCount, secondErrors, measured, warmup, errors, late, iterations, stride = 1, pointsHalved;

    sealed class SeriesFigures(string name)
    {
        public readonly string Name = name;
        public LiveHistogram Interval = new();
        public int Measured, Errors, FirstIndex = int.MaxValue;
    }

    /// <param name="isIterations">Whether a series is whole iterations of the others' requests; null when every sample is a request.</param>
    public LiveRunStats(Func<string, bool>? isIterations = null) : this(Stopwatch.GetTimestamp, isIterations) { }

    /// <param name="timestamp">Stopwatch ticks; tests pass their own clock to script the seconds instead of sleeping.</param>
    internal LiveRunStats(Func<long> timestamp, Func<string, bool>? isIterations = null) => (this.timestamp, this.isIterations) = (timestamp, isIterations);

    /// <summary>Counts a recorded sample: its second is the one in which it completed.</summary>
    public void Add(Sample sample)
    {
        var now = timestamp();
        lock (gate)
        {
            if (!started) (started, start) = (true, now);
            if (isIterations is not null && sample.Series is { } whole && IsIterations(whole))
            {
                AddIteration(sample, whole);
                return;
            }
            AddPoint(sample);
            if (sample.IsWarmup)
            {
                warmup++;
                return;
            }
            // Not != : a thread that read the clock before another took the lock counts in the later second.
            if (SecondAt(now) > currentSecond) CloseSecond(SecondAt(now));
            measured++;
            secondCount++;
            if (sample.LagNs > OpenLoadReport.LateNs) late++;
            var own = sample.Series is { } name ? Measured(name, sample) : null;
            if (sample.Error != ErrorKind.None)
            {
                errors++;
                secondErrors++;
                errorsByKind[sample.Error] = errorsByKind.GetValueOrDefault(sample.Error) + 1;
                if (own is not null) own.Errors++;
            }
            if (!sample.Error.IsTransportError())
            {
                runInterval.Add(sample.LatencyNs);
                second.Add(sample.LatencyNs);
                own?.Interval.Add(sample.LatencyNs);
            }
        }
    }

    /// <summary>A whole iteration's sample: its own row's, never the run's requests.</summary>
    void AddIteration(Sample sample, string name)
    {
        if (sample.IsWarmup) return;
        iterations++;
        var own = Measured(name, sample);
        if (sample.Error != ErrorKind.None) own.Errors++;
        if (!sample.Error.IsTransportError()) own.Interval.Add(sample.LatencyNs);
    }

    /// <summary>The series' figures, counting one more measured sample (made at its first).</summary>
    SeriesFigures Measured(string name, Sample sample)
    {
        if (!series.TryGetValue(name, out var own))
        {
            series[name] = own = new SeriesFigures(name);
            seriesInOrder.Add(own);
        }
        own.Measured++;
        own.FirstIndex = Math.Min(own.FirstIndex, sample.Index);
        return own;
    }

    /// <summary>Asked once a series: a name's test allocates, and this runs on the measuring thread.</summary>
    bool IsIterations(string name)
    {
        if (!iterationSeries.TryGetValue(name, out var it)) iterationSeries[name] = it = isIterations!(name);
        return it;
    }

    void AddPoint(Sample sample)
    {
        if (sample.Index % stride != 0) return;
        if (points.Count == MaxPoints)
        {
            // Keep every other point and take every 2k-th sample from now on: the chart spans the whole run.
            for (var i = 0; i < points.Count / 2; i++) points[i] = points[i * 2];
            points.RemoveRange(points.Count / 2, points.Count - points.Count / 2);
            stride *= 2;
            pointsHalved++;
        }
        if (sample.Index % stride == 0) points.Add(new LivePoint(sample.Index, sample.LatencyNs, sample.Error != ErrorKind.None));
    }

    int SecondAt(long now) => (int)((now - start) / Stopwatch.Frequency);

    /// <summary>Queues the current second, and the quiet ones up to <paramref name="next"/>, for the next snapshot.</summary>
    void CloseSecond(int next)
    {
        LiveHistogram? latency = null;
        (long? P50, long? P95, long? P99) read = default;
        if (second.Count > 0)
        {
            if (spares.TryPop(out var spare)) (latency, second) = (second, spare);
            else
            {
                // No snapshot for a while: read it here, the slow way, rather than keep ever more histograms.
                read = (second.ValueAt(500), second.ValueAt(950), second.ValueAt(990));
                second.Clear();
            }
        }
        var dropped = closed.Enqueue(new ClosedSecond(currentSecond, secondCount, secondErrors, next, latency, read.P50, read.P95, read.P99));
        if (dropped?.Latency is { } unread)
        {
            unread.Clear();
            spares.Push(unread);
        }
        secondCount = secondErrors = 0;
        currentSecond = next;
    }
}
