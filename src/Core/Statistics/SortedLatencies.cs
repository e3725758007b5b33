using System.Buffers.Binary;
using System.Collections;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Sorted latencies in a compact, exact form that can be read at any rank without decoding the rest: each
/// value as its difference from the previous one in LEB128 varints (sorted nanosecond latencies differ by little,
/// so a million take 1-3 MB instead of 8), with an index of every <see cref="BlockSize"/>-th value and its
/// offset. A comparison reads a few thousand ranks near the percentiles it resamples and the ranks of its
/// histogram's edges, so its cost does not grow with the run. Lossless: every nearest-rank figure stays exact.
/// </summary>
public sealed class SortedLatencies : IReadOnlyList<long>
{
    public const int BlockSize = 128;
    const int IndexEntry = 12; // the block's first value (8 bytes) and its offset in the varint stream (4)

    readonly byte[] data;
    readonly int blocks, stream;
    int cachedBlock = -1;
    readonly long[] cache = new long[BlockSize];

    public SortedLatencies(byte[] data)
    {
        this.data = data;
        Count = BinaryPrimitives.ReadInt32LittleEndian(data);
        blocks = (Count + BlockSize - 1) / BlockSize;
        stream = 4 + blocks * IndexEntry;
        if (Count < 0 || stream > data.Length) throw new FormatException("Not an encoding of sorted latencies.");
    }

    public int Count { get; }

    public static byte[] Encode(ReadOnlySpan<long> sortedAscending)
    {
        var blocks = (sortedAscending.Length + BlockSize - 1) / BlockSize;
        var index = new byte[4 + blocks * IndexEntry];
        BinaryPrimitives.WriteInt32LittleEndian(index, sortedAscending.Length);
        using var varints = new MemoryStream(sortedAscending.Length * 2 + 8);
        long previous = 0;
        for (var i = 0; i < sortedAscending.Length; i++)
        {
            var value = sortedAscending[i];
            if (value < previous || value < 0) throw new ArgumentException("The values must be sorted ascending and not negative.", nameof(sortedAscending));
            if (i % BlockSize == 0)
            {
                // A block starts from its first value itself: its varints are differences from it.
                var entry = index.AsSpan(4 + i / BlockSize * IndexEntry);
                BinaryPrimitives.WriteInt64LittleEndian(entry, value);
                BinaryPrimitives.WriteInt32LittleEndian(entry[8..], (int)varints.Length);
                previous = value;
                continue;
            }
            var delta = (ulong)(value - previous);
            previous = value;
            while (delta >= 0x80)
            {
                varints.WriteByte((byte)(delta | 0x80));
                delta >>= 7;
            }
            varints.WriteByte((byte)delta);
        }
        return [.. index, .. varints.ToArray()];
    }

    public long this[int rank]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfNegative(rank);
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(rank, Count);
            var block = rank / BlockSize;
            if (block != cachedBlock) Decode(block);
            return cache[rank % BlockSize];
        }
    }

    void Decode(int block)
    {
        var entry = data.AsSpan(4 + block * IndexEntry);
        var value = BinaryPrimitives.ReadInt64LittleEndian(entry);
        var position = stream + BinaryPrimitives.ReadInt32LittleEndian(entry[8..]);
        var length = Math.Min(BlockSize, Count - block * BlockSize);
        cache[0] = value;
        for (var i = 1; i < length; i++)
        {
            ulong delta = 0;
            var shift = 0;
            byte b;
            do
            {
                b = data[position++];
                delta |= (ulong)(b & 0x7F) << shift;
                shift += 7;
            }
            while (b >= 0x80);
            value += (long)delta;
            cache[i] = value;
        }
        cachedBlock = block;
    }

    /// <summary>How many values are below <paramref name="value"/> (binary search): the rank where it would go.</summary>
    public static int CountBelow(IReadOnlyList<long> sorted, long value)
    {
        int low = 0, high = sorted.Count;
        while (low < high)
        {
            var middle = low + (high - low) / 2;
            if (sorted[middle] < value) low = middle + 1;
            else high = middle;
        }
        return low;
    }

    public IEnumerator<long> GetEnumerator()
    {
        for (var i = 0; i < Count; i++) yield return this[i];
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
