using System.Diagnostics;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Runner.Tests.Execution;

// LiveRunStats as it was at 3575886, before its lock was shortened, with only its clock made a parameter: the
// oracle the new one must agree with, snapshot for snapshot, for the same samples at the same times.
sealed class LiveRunStatsBefore(Func<long> timestamp)
{
    const int MaxPoints = 2000;

    readonly Lock gate = new();
    readonly LiveHistogram all = new(), second = new();
    readonly Dictionary<ErrorKind, int> errorsByKind = [];
    readonly List<LiveSecond> seconds = [];
    readonly List<LivePoint> points = new(MaxPoints);
    readonly Dictionary<string, SeriesFigures> series = [];
    long start;
    int currentSecond, secondCount, secondErrors, measured, warmup, errors, late, stride = 1;

    sealed class SeriesFigures
    {
        public readonly LiveHistogram Latency = new();
        public int Measured, Errors, FirstIndex = int.MaxValue;
    }

    /// <summary>Counts a recorded sample: its second is the one in which it completed.</summary>
    public void Add(Sample sample)
    {
        var now = timestamp();
        lock (gate)
        {
            if (start == 0) start = now;
            if (sample.Index % stride == 0)
            {
                if (points.Count == MaxPoints)
                {
                    // Keep every other point and take every 2k-th sample from now on: the chart spans the whole run.
                    for (var i = 0; i < points.Count / 2; i++) points[i] = points[i * 2];
                    points.RemoveRange(points.Count / 2, points.Count - points.Count / 2);
                    stride *= 2;
                }
                if (sample.Index % stride == 0) points.Add(new LivePoint(sample.Index, sample.LatencyNs, sample.Error != ErrorKind.None));
            }
            if (sample.IsWarmup)
            {
                warmup++;
                return;
            }
            var s = (int)((now - start) / Stopwatch.Frequency);
            if (s != currentSecond) CloseSecond(s);
            measured++;
            secondCount++;
            if (sample.LagNs > OpenLoadReport.LateNs) late++;
            SeriesFigures? own = null;
            if (sample.Series is { } name && !series.TryGetValue(name, out own)) series[name] = own = new SeriesFigures();
            if (own is not null)
            {
                own.Measured++;
                own.FirstIndex = Math.Min(own.FirstIndex, sample.Index);
            }
            if (sample.Error != ErrorKind.None)
            {
                errors++;
                secondErrors++;
                errorsByKind[sample.Error] = errorsByKind.GetValueOrDefault(sample.Error) + 1;
                if (own is not null) own.Errors++;
            }
            if (!sample.Error.IsTransportError())
            {
                all.Add(sample.LatencyNs);
                second.Add(sample.LatencyNs);
                own?.Latency.Add(sample.LatencyNs);
            }
        }
    }

    void CloseSecond(int next)
    {
        if (secondCount > 0) seconds.Add(new LiveSecond(currentSecond, secondCount, secondErrors, second.ValueAt(500), second.ValueAt(950), second.ValueAt(990)));
        // Seconds in which nothing completed are rows of zeros: a stalled target shows as a gap, not as nothing.
        for (var quiet = currentSecond + 1; quiet < next; quiet++) seconds.Add(new LiveSecond(quiet, 0, 0, null, null, null));
        if (seconds.Count > LiveSnapshot.MaxSeconds) seconds.RemoveRange(0, seconds.Count - LiveSnapshot.MaxSeconds);
        second.Clear();
        secondCount = secondErrors = 0;
        currentSecond = next;
    }

    public LiveSnapshot Snapshot()
    {
        var now = timestamp();
        lock (gate)
        {
            if (start != 0)
            {
                var s = (int)((now - start) / Stopwatch.Frequency);
                if (s != currentSecond) CloseSecond(s); // a stall: seconds pass with nothing completed
            }
            return new LiveSnapshot(
                start == 0 ? 0 : Ticks.ToNanoseconds(now - start), measured, warmup, errors, new Dictionary<ErrorKind, int>(errorsByKind),
                all.ValueAt(500), all.ValueAt(950), all.ValueAt(990), all.Count == 0 ? null : all.MaxNs, seconds.ToList(), points.ToList(),
                // In the order they start (the variants' own order), whichever answered first.
                late, series.Count == 0 ? null : series.OrderBy(s => s.Value.FirstIndex).Select(s => new LiveSeries(s.Key, s.Value.Measured, s.Value.Errors,
                    s.Value.Latency.ValueAt(500), s.Value.Latency.ValueAt(950), s.Value.Latency.ValueAt(990))).ToList());
        }
    }
}
