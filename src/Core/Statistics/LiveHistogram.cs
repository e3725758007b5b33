using HdrHistogram;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A latency histogram for live figures while a run is under way, in nanoseconds: HdrHistogram's, with
/// 3 significant digits, so any value is known to within 1/1024 of itself, up to <see cref="HighestNs"/>
/// (longer values count as that). Adding never allocates. Percentiles are read at the nearest rank, at the
/// upper edge of its bucket and never above the largest value added, so a live p99 is never below the exact
/// one. The exact figures come from the samples once the run has ended (<see cref="RunDigest"/>).
/// Not thread-safe: each one has one owner at a time (the live figures hand them between their adding and
/// reading sides under a lock), so a plain (not concurrent) histogram is enough. Each holds a 304 KiB count
/// array, so its users reuse them rather than make new ones.
/// </summary>
public sealed class LiveHistogram
{
    public const int SignificantDigits = 3;

    /// <summary>A day: far beyond any operation's timeout.</summary>
    public const long HighestNs = 86_400_000_000_000;

    readonly LongHistogram histogram = new(HighestNs, SignificantDigits);

    public long Count => histogram.TotalCount;
    public long MaxNs { get; private set; }

    public void Add(long valueNs)
    {
        var v = Math.Clamp(valueNs, 0, HighestNs);
        histogram.RecordValue(v);
        if (v > MaxNs) MaxNs = v;
    }

    /// <summary>Adds another histogram's values, as if each had been added here: the same counts, so the same percentiles.</summary>
    public void Add(LiveHistogram other)
    {
        if (other.Count == 0) return;
        histogram.Add(other.histogram);
        MaxNs = Math.Max(MaxNs, other.MaxNs);
    }

    public void Clear()
    {
        if (Count == 0) return; // nothing to zero: saves writing the whole count array
        histogram.Reset();
        MaxNs = 0;
    }

    /// <summary>The value at a percentile (in tenths of a percent, as <see cref="Percentile.NearestRank"/>), null when empty.</summary>
    public long? ValueAt(int permille)
    {
        var count = Count;
        if (count == 0) return null;
        var rank = Math.Max(1, (permille * count + 999) / 1000); // the nearest rank, ⌈p · n⌉
        // HdrHistogram rounds p · n to the nearest count; asked for exactly rank / n, it reads that rank.
        return Math.Min(histogram.GetValueAtPercentile(100.0 * rank / count), MaxNs);
    }
}
