using System.Runtime.InteropServices;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Processing.Executing;

public sealed partial class LiveRunStats
{
    /// <summary>Spares left for the seconds that close before the next snapshot: a heartbeat a second apart sees one or two.</summary>
    const int SecondSpares = 2;

    // The reading side: everything below is the snapshot's, under reading, so no two snapshots share a histogram.
    readonly Lock reading = new();
    readonly LiveHistogram runTotal = new();
    readonly List<LiveHistogram> seriesTotals = [];
    readonly List<LiveSecond> seconds = [];
    readonly List<LivePoint> pointsCopy = new(MaxPoints);
    int pointsHalvedCopied;
    readonly ClosedSecond[] closedTaken = new ClosedSecond[ClosedSeconds.Capacity];
    readonly (ErrorKind Kind, int Count)[] kindsTaken = new (ErrorKind, int)[ErrorKinds];
    readonly List<TakenSeries> seriesTaken = [];
    readonly List<LiveHistogram> toSpares = [];

    readonly record struct TakenSeries(string Name, int Measured, int Errors, int FirstIndex, LiveHistogram? Interval);

    readonly record struct Taken(long ElapsedNs, int Measured, int Warmup, int Errors, int Late, int Iterations, int Kinds, int Closed, LiveHistogram? RunInterval);

    public LiveSnapshot Snapshot()
    {
        lock (reading)
        {
            // The seconds closed since the last snapshot first: their histograms, read and cleared, are the spares
            // swapped in below, so a long wait for a snapshot never makes more.
            int closedBefore;
            lock (gate) closedBefore = closed.DrainInto(closedTaken);
            AddRows(closedBefore);
            var taken = Take(timestamp());
            if (taken.RunInterval is { } run) Fold(run, runTotal);
            for (var i = 0; i < seriesTaken.Count; i++)
            {
                if (seriesTotals.Count == i) seriesTotals.Add(new LiveHistogram());
                if (seriesTaken[i].Interval is { } interval) Fold(interval, seriesTotals[i]);
            }
            AddRows(taken.Closed);
            lock (gate)
            {
                foreach (var cleared in toSpares) spares.Push(cleared);
            }
            toSpares.Clear();
            return new LiveSnapshot(
                taken.ElapsedNs, taken.Measured, taken.Warmup, taken.Errors, kindsTaken.Take(taken.Kinds).ToDictionary(k => k.Kind, k => k.Count),
                runTotal.ValueAt(500), runTotal.ValueAt(950), runTotal.ValueAt(990), runTotal.Count == 0 ? null : runTotal.MaxNs, seconds.ToList(), pointsCopy.ToList(),
                taken.Late, seriesTaken.Count == 0 ? null : SeriesRows(), isIterations is null ? null : taken.Iterations);
        }
    }

    /// <summary>
    /// In the order they start (the variants' own order), whichever answered first; a journey's iterations after its
    /// steps (which start inside them), as its table has them once it ends.
    /// </summary>
    List<LiveSeries> SeriesRows()
    {
        var rows = seriesTaken.Select((s, i) => (s, Latency: seriesTotals[i])).OrderBy(s => s.s.FirstIndex)
            .Select(s => new LiveSeries(s.s.Name, s.s.Measured, s.s.Errors, s.Latency.ValueAt(500), s.Latency.ValueAt(950), s.Latency.ValueAt(990))).ToList();
        if (isIterations is null) return rows;
        var ordered = rows.Where(r => !isIterations(r.Name)).ToList();
        foreach (var iteration in rows.Where(r => isIterations(r.Name)))
        {
            var prefix = iteration.Name[..(iteration.Name.LastIndexOf('/') + 1)]; // a variant's or agent's, or none
            ordered.Insert(ordered.FindLastIndex(r => r.Name.StartsWith(prefix, StringComparison.Ordinal)) + 1, iteration);
        }
        return ordered;
    }

    /// <summary>
    /// Swaps and copies out, under gate, all a snapshot needs. The spares it swaps in are made first, outside
    /// gate; if a series appeared meanwhile, it makes more and comes back.
    /// </summary>
    Taken Take(long now)
    {
        while (true)
        {
            int missing;
            lock (gate)
            {
                foreach (var made in toSpares) spares.Push(made);
                toSpares.Clear();
                missing = 1 + seriesInOrder.Count + SecondSpares - spares.Count;
                if (missing <= 0) return TakeUnderGate(now);
            }
            for (var i = 0; i < missing; i++) toSpares.Add(new LiveHistogram());
        }
    }

    Taken TakeUnderGate(long now)
    {
        if (started && SecondAt(now) > currentSecond) CloseSecond(SecondAt(now)); // a stall: seconds pass with nothing completed
        var run = SwapOut(ref runInterval);
        seriesTaken.Clear();
        foreach (var own in seriesInOrder) seriesTaken.Add(new TakenSeries(own.Name, own.Measured, own.Errors, own.FirstIndex, SwapOut(ref own.Interval)));
        var kinds = 0;
        foreach (var (kind, count) in errorsByKind) kindsTaken[kinds++] = (kind, count);
        // Points are only appended between halvings: copy the new ones, or all of them after a halving.
        if (pointsHalvedCopied != pointsHalved)
        {
            pointsCopy.Clear();
            pointsHalvedCopied = pointsHalved;
        }
        pointsCopy.AddRange(CollectionsMarshal.AsSpan(points)[pointsCopy.Count..]);
        var closedCount = closed.DrainInto(closedTaken);
        return new Taken(started ? Math.Max(0, Ticks.ToNanoseconds(now - start)) : 0, measured, warmup, errors, late, iterations, kinds, closedCount, run);
    }

    /// <summary>Takes an interval's values, leaving a spare in its place; an empty one stays (nothing to add or clear).</summary>
    LiveHistogram? SwapOut(ref LiveHistogram interval)
    {
        if (interval.Count == 0) return null;
        var full = interval;
        interval = spares.Pop();
        return full;
    }

    void Fold(LiveHistogram interval, LiveHistogram total)
    {
        total.Add(interval);
        interval.Clear();
        toSpares.Add(interval);
    }

    void AddRows(int closedCount)
    {
        for (var i = 0; i < closedCount; i++)
        {
            AddRows(closedTaken[i]);
            closedTaken[i] = default;
        }
    }

    /// <summary>A closed second's row, if anything completed in it, and rows of zeros for the quiet seconds after it.</summary>
    void AddRows(in ClosedSecond closedSecond)
    {
        var (p50, p95, p99) = (closedSecond.P50Ns, closedSecond.P95Ns, closedSecond.P99Ns);
        if (closedSecond.Latency is { } latency)
        {
            (p50, p95, p99) = (latency.ValueAt(500), latency.ValueAt(950), latency.ValueAt(990));
            latency.Clear();
            toSpares.Add(latency);
        }
        if (closedSecond.Count > 0) seconds.Add(new LiveSecond(closedSecond.Second, closedSecond.Count, closedSecond.Errors, p50, p95, p99));
        // A stalled target shows as a gap, not as nothing; only the last MaxSeconds of a long stall could be shown.
        for (var quiet = Math.Max(closedSecond.Second + 1, closedSecond.Next - LiveSnapshot.MaxSeconds); quiet < closedSecond.Next; quiet++)
            seconds.Add(new LiveSecond(quiet, 0, 0, null, null, null));
        if (seconds.Count > LiveSnapshot.MaxSeconds) seconds.RemoveRange(0, seconds.Count - LiveSnapshot.MaxSeconds);
    }
}
