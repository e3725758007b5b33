using System.Numerics;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A fixed-size latency histogram for live figures while a run is under way, in the manner of HdrHistogram:
/// exact below 64 ns, then 32 buckets per power of two, so any value is known to within 1/32 (about 3 %).
/// Adding is a few instructions and never allocates; percentiles are read at the upper edge of their bucket,
/// so a live p99 is never below the exact one by more than the bucket's width. The exact figures come from the
/// samples once the run has ended (<see cref="RunDigest"/>). Not thread-safe: the caller holds a lock.
/// </summary>
public sealed class LiveHistogram
{
    const int SubBuckets = 32, SubBits = 5, Linear = 64, LinearBits = 6;
    public const int BucketCount = Linear + (63 - LinearBits) * SubBuckets;

    readonly long[] counts = new long[BucketCount];

    public long Count { get; private set; }
    public long MaxNs { get; private set; }

    public void Add(long valueNs)
    {
        var v = Math.Max(0, valueNs);
        counts[IndexOf(v)]++;
        Count++;
        if (v > MaxNs) MaxNs = v;
    }

    public void Clear()
    {
        Array.Clear(counts);
        Count = 0;
        MaxNs = 0;
    }

    /// <summary>The value at a percentile (in tenths of a percent, as <see cref="Percentile.NearestRank"/>), null when empty.</summary>
    public long? ValueAt(int permille)
    {
        if (Count == 0) return null;
        var rank = (permille * Count + 999) / 1000; // the nearest rank, ⌈p · n⌉
        long seen = 0;
        for (var i = 0; i < counts.Length; i++)
        {
            seen += counts[i];
            if (seen >= Math.Max(1, rank)) return Math.Min(UpperEdge(i), MaxNs);
        }
        return MaxNs;
    }

    public static int IndexOf(long v)
    {
        if (v < Linear) return (int)v;
        var exponent = 63 - BitOperations.LeadingZeroCount((ulong)v); // ≥ 6
        var sub = (int)((v >> (exponent - SubBits)) & (SubBuckets - 1));
        return Linear + (exponent - LinearBits) * SubBuckets + sub;
    }

    /// <summary>The largest value that falls into bucket <paramref name="index"/>.</summary>
    public static long UpperEdge(int index)
    {
        if (index < Linear) return index;
        var exponent = (index - Linear) / SubBuckets + LinearBits;
        var sub = (index - Linear) % SubBuckets;
        var width = 1L << (exponent - SubBits);
        return (1L << exponent) + (sub + 1) * width - 1;
    }
}
