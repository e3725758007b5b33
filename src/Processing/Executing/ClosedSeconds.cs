using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// A second of live figures closed by the adding side and not yet turned into rows by a snapshot: its own row
/// (when something completed in it) and the quiet seconds after it, up to <see cref="Next"/>. Its percentiles
/// are read from <see cref="Latency"/> by the snapshot, outside the adding side's lock, or were read by the
/// adding side already when it had no spare histogram left (then <see cref="Latency"/> is null).
/// </summary>
readonly record struct ClosedSecond(int Second, int Count, int Errors, int Next, LiveHistogram? Latency, long? P50Ns, long? P95Ns, long? P99Ns);

/// <summary>
/// The closed seconds waiting for a snapshot, oldest first, in a fixed array: enqueuing never allocates. Full,
/// it drops the oldest: every closed second but the first since the last snapshot has a row, so the
/// <see cref="Capacity"/> that stay hold at least <see cref="LiveSnapshot.MaxSeconds"/> rows, all newer, and a
/// snapshot, which keeps only that many, would never have shown the dropped one.
/// </summary>
sealed class ClosedSeconds
{
    public const int Capacity = LiveSnapshot.MaxSeconds + 1;

    readonly ClosedSecond[] ring = new ClosedSecond[Capacity];
    int oldest;

    public int Count { get; private set; }

    /// <summary>Queues a closed second; returns the one dropped to make room, if the queue was full.</summary>
    public ClosedSecond? Enqueue(in ClosedSecond closed)
    {
        ClosedSecond? dropped = null;
        if (Count == Capacity)
        {
            dropped = ring[oldest];
            oldest = (oldest + 1) % Capacity;
            Count--;
        }
        ring[(oldest + Count) % Capacity] = closed;
        Count++;
        return dropped;
    }

    /// <summary>Moves every queued second, oldest first, into <paramref name="target"/> (at least <see cref="Capacity"/> long).</summary>
    public int DrainInto(ClosedSecond[] target)
    {
        var count = Count;
        for (var i = 0; i < count; i++)
        {
            target[i] = ring[(oldest + i) % Capacity];
            ring[(oldest + i) % Capacity] = default; // the histogram now belongs to the snapshot
        }
        (oldest, Count) = (0, 0);
        return count;
    }
}
