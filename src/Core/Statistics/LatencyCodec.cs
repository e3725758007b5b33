namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Sorted latencies in a compact, exact form for comparisons: each value as its difference from the previous
/// one, in LEB128 varints. Sorted nanosecond latencies differ by little, so a million of them take 1-3 MB
/// instead of 8, and decode in milliseconds. Lossless: every nearest-rank figure stays exact.
/// </summary>
public static class LatencyCodec
{
    public static byte[] EncodeSorted(ReadOnlySpan<long> sortedAscending)
    {
        using var buffer = new MemoryStream(sortedAscending.Length * 2 + 8);
        long previous = 0;
        foreach (var value in sortedAscending)
        {
            if (value < previous) throw new ArgumentException("The values must be sorted ascending and not negative.", nameof(sortedAscending));
            var delta = (ulong)(value - previous);
            previous = value;
            while (delta >= 0x80)
            {
                buffer.WriteByte((byte)(delta | 0x80));
                delta >>= 7;
            }
            buffer.WriteByte((byte)delta);
        }
        return buffer.ToArray();
    }

    public static long[] DecodeSorted(ReadOnlySpan<byte> data, int count)
    {
        var values = new long[count];
        long previous = 0;
        var position = 0;
        for (var i = 0; i < count; i++)
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
            previous += (long)delta;
            values[i] = previous;
        }
        if (position != data.Length) throw new FormatException($"{data.Length - position} bytes left over after {count} values.");
        return values;
    }
}
