using System.Buffers;

namespace BenchDashboard.Core.Runs.Packing;

/// <summary>
/// LEB128 varints (7 bits a byte, low bits first, as <see cref="BinaryWriter.Write7BitEncodedInt64"/>) and zig-zag
/// for signed values, so a small negative delta is as short as a small positive one. Arithmetic on deltas wraps
/// (unchecked): <c>long.MaxValue − long.MinValue</c> is stored as its 64-bit remainder and added back the same way.
/// </summary>
static class Varints
{
    public static ulong ZigZag(long value) => (ulong)((value << 1) ^ (value >> 63));

    public static long UnZigZag(ulong value) => (long)(value >> 1) ^ -(long)(value & 1);

    /// <summary>Bytes of <paramref name="value"/> as a varint: one per 7 significant bits (counted for every value of every column, so without a loop).</summary>
    public static int Size(ulong value) => System.Numerics.BitOperations.Log2(value | 1) / 7 + 1;
}

/// <summary>A growing byte buffer with varint writes; rented arrays, so packing a block allocates its result only.</summary>
sealed class PackWriter : IDisposable
{
    byte[] buffer;
    int length;

    public PackWriter(int capacity) => buffer = ArrayPool<byte>.Shared.Rent(Math.Max(capacity, 16));

    public int Length => length;

    public ReadOnlySpan<byte> Written => buffer.AsSpan(0, length);

    public void Byte(byte value)
    {
        if (length == buffer.Length) Grow(1);
        buffer[length++] = value;
    }

    public void Unsigned(ulong value)
    {
        if (length + 10 > buffer.Length) Grow(10);
        while (value >= 0x80)
        {
            buffer[length++] = (byte)(value | 0x80);
            value >>= 7;
        }
        buffer[length++] = (byte)value;
    }

    public void Signed(long value) => Unsigned(Varints.ZigZag(value));

    public void Bytes(ReadOnlySpan<byte> bytes)
    {
        if (length + bytes.Length > buffer.Length) Grow(bytes.Length);
        bytes.CopyTo(buffer.AsSpan(length));
        length += bytes.Length;
    }

    /// <summary>A span of <paramref name="count"/> zeroed bytes at the end, to be filled (a bitmap).</summary>
    public Span<byte> Zeroed(int count)
    {
        if (length + count > buffer.Length) Grow(count);
        var span = buffer.AsSpan(length, count);
        span.Clear();
        length += count;
        return span;
    }

    public void Reset() => length = 0;

    public byte[] ToArray() => Written.ToArray();

    void Grow(int atLeast)
    {
        var larger = ArrayPool<byte>.Shared.Rent(Math.Max(buffer.Length * 2, length + atLeast));
        buffer.AsSpan(0, length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(buffer);
        buffer = larger;
    }

    public void Dispose()
    {
        ArrayPool<byte>.Shared.Return(buffer);
        buffer = [];
    }
}

/// <summary>Reads what <see cref="PackWriter"/> wrote; anything short or malformed is <see cref="InvalidDataException"/>.</summary>
ref struct PackReader(ReadOnlySpan<byte> data)
{
    readonly ReadOnlySpan<byte> data = data;
    int at;

    public readonly bool AtEnd => at == data.Length;

    public byte Byte()
    {
        if (at >= data.Length) throw Corrupt("it ends early");
        return data[at++];
    }

    public ulong Unsigned()
    {
        ulong result = 0;
        for (var shift = 0; ; shift += 7)
        {
            var b = Byte();
            if (shift == 63 && b > 1) throw Corrupt("a varint is longer than 64 bits");
            result |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80) return result;
        }
    }

    public long Signed() => Varints.UnZigZag(Unsigned());

    public int Length()
    {
        var length = Unsigned();
        if (length > (ulong)(data.Length - at)) throw Corrupt("a column is longer than the block");
        return (int)length;
    }

    public ReadOnlySpan<byte> Bytes(int count)
    {
        if (count < 0 || count > data.Length - at) throw Corrupt("it ends early");
        var bytes = data.Slice(at, count);
        at += count;
        return bytes;
    }

    public static InvalidDataException Corrupt(string why) => new($"A packed sample block cannot be read: {why}.");
}
