namespace BenchDashboard.Core.Runs.Packing;

/// <summary>
/// How one column of a block is written. Every integer column is written the shortest of four ways, chosen per
/// block by counting bytes first: its values or its deltas (each from the one before, the first from 0), each as
/// zig-zag varints one per sample or as runs (a value and how many times it repeats). So contiguous indexes or a
/// constant size cost a few bytes a block, and latencies, which wander, cost their deltas. A nullable column is a
/// presence map (none, all, or one bit a sample) and then the integer column of the present values only.
/// </summary>
static class PackedColumns
{
    const byte Values = 0, Deltas = 1, ValueRuns = 2, DeltaRuns = 3, PackedValues = 4, PackedDeltas = 5;
    const byte NonePresent = 0, AllPresent = 1, SomePresent = 2;

    public static void WriteIntegers(PackWriter writer, ReadOnlySpan<long> values)
    {
        long valueBytes = 0, deltaBytes = 0, valueRunBytes = 0, deltaRunBytes = 0;
        long previous = 0, runValue = 0, runDelta = 0;
        long valueRun = 0, deltaRun = 0;
        long minValue = long.MaxValue, maxValue = long.MinValue, minDelta = long.MaxValue, maxDelta = long.MinValue;
        for (var i = 0; i < values.Length; i++)
        {
            var value = values[i];
            var delta = unchecked(value - previous);
            previous = value;
            minValue = Math.Min(minValue, value);
            maxValue = Math.Max(maxValue, value);
            if (i > 0)
            {
                minDelta = Math.Min(minDelta, delta);
                maxDelta = Math.Max(maxDelta, delta);
            }
            valueBytes += Varints.Size(Varints.ZigZag(value));
            deltaBytes += Varints.Size(Varints.ZigZag(delta));
            if (valueRun > 0 && value == runValue) valueRun++;
            else
            {
                if (valueRun > 0) valueRunBytes += RunSize(runValue, valueRun);
                runValue = value;
                valueRun = 1;
            }
            if (deltaRun > 0 && delta == runDelta) deltaRun++;
            else
            {
                if (deltaRun > 0) deltaRunBytes += RunSize(runDelta, deltaRun);
                runDelta = delta;
                deltaRun = 1;
            }
        }
        if (valueRun > 0) valueRunBytes += RunSize(runValue, valueRun);
        if (deltaRun > 0) deltaRunBytes += RunSize(runDelta, deltaRun);

        var (form, length) = (Values, valueBytes);
        if (deltaBytes < length) (form, length) = (Deltas, deltaBytes);
        if (valueRunBytes < length) (form, length) = (ValueRuns, valueRunBytes);
        if (deltaRunBytes < length) (form, length) = (DeltaRuns, deltaRunBytes);
        // Bit-packed: the smallest value (for deltas: the first value, then the smallest delta) and a width, then
        // each value's distance from the smallest in that many bits; what noisy latencies come closest to in.
        var width = values.Length == 0 ? 0 : Width(unchecked((ulong)(maxValue - minValue)));
        var packedValueBytes = values.Length == 0 ? long.MaxValue : Varints.Size(Varints.ZigZag(minValue)) + 1 + BitBytes(values.Length, width);
        var deltaWidth = values.Length < 2 ? 0 : Width(unchecked((ulong)(maxDelta - minDelta)));
        var packedDeltaBytes = values.Length < 2 ? long.MaxValue
            : Varints.Size(Varints.ZigZag(values[0])) + Varints.Size(Varints.ZigZag(minDelta)) + 1 + BitBytes(values.Length - 1, deltaWidth);
        if (packedValueBytes < length) (form, length) = (PackedValues, packedValueBytes);
        if (packedDeltaBytes < length) (form, length) = (PackedDeltas, packedDeltaBytes);

        writer.Byte(form);
        writer.Unsigned((ulong)length);
        var start = writer.Length;
        if (form is PackedValues or PackedDeltas)
        {
            if (form == PackedValues)
            {
                writer.Signed(minValue);
                writer.Byte((byte)width);
                WriteBits(writer, values, 0, minValue, width, deltas: false);
            }
            else
            {
                writer.Signed(values[0]);
                writer.Signed(minDelta);
                writer.Byte((byte)deltaWidth);
                WriteBits(writer, values, 1, minDelta, deltaWidth, deltas: true);
            }
            if (writer.Length - start != length) throw new InvalidOperationException("A packed column's size was counted wrong.");
            return;
        }
        var deltas = form is Deltas or DeltaRuns;
        var runs = form is ValueRuns or DeltaRuns;
        previous = 0;
        long current = 0, count = 0;
        for (var i = 0; i < values.Length; i++)
        {
            var item = deltas ? unchecked(values[i] - previous) : values[i];
            previous = values[i];
            if (!runs) writer.Signed(item);
            else if (count > 0 && item == current) count++;
            else
            {
                if (count > 0) WriteRun(writer, current, count);
                current = item;
                count = 1;
            }
        }
        if (count > 0) WriteRun(writer, current, count);
        if (writer.Length - start != length) throw new InvalidOperationException("A packed column's size was counted wrong.");
    }

    public static void ReadIntegers(ref PackReader reader, Span<long> into)
    {
        var form = reader.Byte();
        if (form > PackedDeltas) throw PackReader.Corrupt($"a column has an unknown form {form}");
        var column = new PackReader(reader.Bytes(reader.Length()));
        var deltas = form is Deltas or DeltaRuns;
        long previous = 0;
        if (form is PackedValues or PackedDeltas)
        {
            if (into.Length == 0 || (form == PackedDeltas && into.Length < 2)) throw PackReader.Corrupt("a bit-packed column has too few values");
            var first = form == PackedDeltas ? 1 : 0;
            if (first == 1) into[0] = column.Signed();
            var min = column.Signed();
            var width = column.Byte();
            if (width > 64) throw PackReader.Corrupt($"a bit-packed column is {width} bits wide");
            var bits = column.Bytes(BitBytes(into.Length - first, width));
            ulong buffer = 0;
            int held = 0, at = 0;
            if (width <= MaxAccumulated)
            {
                // Whole bytes into a 64-bit accumulator until it holds a value's width (the loop below, a byte at a time).
                var mask = (1UL << width) - 1;
                for (var i = first; i < into.Length; i++)
                {
                    for (; held < width; held += 8) buffer |= (ulong)bits[at++] << held;
                    var value = unchecked(min + (long)(buffer & mask));
                    buffer >>= width;
                    held -= width;
                    into[i] = first == 1 ? unchecked(into[i - 1] + value) : value;
                }
            }
            else for (var i = first; i < into.Length; i++)
            {
                ulong item = 0;
                for (var got = 0; got < width;)
                {
                    if (held == 0) { buffer = bits[at++]; held = 8; }
                    var take = Math.Min(width - got, held);
                    item |= (buffer & ((1UL << take) - 1)) << got;
                    buffer >>= take;
                    held -= take;
                    got += take;
                }
                var value = unchecked(min + (long)item);
                into[i] = first == 1 ? unchecked(into[i - 1] + value) : value;
            }
            if (held > 0 && buffer != 0) throw PackReader.Corrupt("a bit-packed column has bits past its values");
        }
        else if (form is Values or Deltas)
        {
            for (var i = 0; i < into.Length; i++)
            {
                var item = column.Signed();
                previous = into[i] = deltas ? unchecked(previous + item) : item;
            }
        }
        else
        {
            var i = 0;
            while (i < into.Length)
            {
                var item = column.Signed();
                var count = column.Unsigned();
                if (count >= (ulong)(into.Length - i)) throw PackReader.Corrupt("a run is longer than its column");
                for (var k = 0UL; k <= count; k++, i++)
                    previous = into[i] = deltas ? unchecked(previous + item) : item;
            }
        }
        if (!column.AtEnd) throw PackReader.Corrupt("a column has bytes left over");
    }

    /// <summary>A nullable column: its presence, then the present values as an integer column.</summary>
    public static void WriteNullable(PackWriter writer, IReadOnlyList<Sample> samples, Func<Sample, long?> read, Span<long> scratch)
    {
        var present = 0;
        for (var i = 0; i < samples.Count; i++)
            if (read(samples[i]) is { } value) scratch[present++] = value;
        WritePresence(writer, samples, present, s => read(s) is not null);
        if (present > 0) WriteIntegers(writer, scratch[..present]);
    }

    /// <summary>Reads a nullable column: <paramref name="set"/> is called for each sample with a value, in order.</summary>
    public static void ReadNullable(ref PackReader reader, Sample[] samples, Action<Sample, long> set, Span<long> scratch)
    {
        var present = ReadPresence(ref reader, samples.Length, scratch);
        if (present.Count == 0) return;
        // The presence map is kept as indexes at the end of the scratch so the values can be read into its start.
        var values = scratch[..present.Count];
        var at = scratch.Slice(samples.Length, present.Count);
        if (present.All)
        {
            ReadIntegers(ref reader, values);
            for (var i = 0; i < samples.Length; i++) set(samples[i], values[i]);
            return;
        }
        ReadIntegers(ref reader, values);
        for (var k = 0; k < present.Count; k++) set(samples[at[k]], values[k]);
    }

    /// <summary>A flag a sample: none set, all set, or one bit a sample.</summary>
    public static void WriteFlags(PackWriter writer, IReadOnlyList<Sample> samples, Func<Sample, bool> read)
    {
        var set = 0;
        for (var i = 0; i < samples.Count; i++) if (read(samples[i])) set++;
        WritePresence(writer, samples, set, read);
    }

    public static void ReadFlags(ref PackReader reader, Sample[] samples, Action<Sample> set, Span<long> scratch)
    {
        var flags = ReadPresence(ref reader, samples.Length, scratch);
        var at = scratch.Slice(samples.Length, flags.Count);
        for (var k = 0; k < flags.Count; k++) set(samples[flags.All ? k : at[k]]);
    }

    static void WritePresence(PackWriter writer, IReadOnlyList<Sample> samples, int count, Func<Sample, bool> has)
    {
        if (count == 0) { writer.Byte(NonePresent); return; }
        if (count == samples.Count) { writer.Byte(AllPresent); return; }
        writer.Byte(SomePresent);
        var bits = writer.Zeroed((samples.Count + 7) / 8);
        for (var i = 0; i < samples.Count; i++)
            if (has(samples[i])) bits[i >> 3] |= (byte)(1 << (i & 7));
    }

    /// <summary>How many are present and whether all are; when some are, their indexes go to scratch[n..n+count].</summary>
    static (int Count, bool All) ReadPresence(ref PackReader reader, int n, Span<long> scratch)
    {
        switch (reader.Byte())
        {
            case NonePresent: return (0, false);
            case AllPresent: return (n, true);
            case SomePresent:
                var bits = reader.Bytes((n + 7) / 8);
                var count = 0;
                for (var i = 0; i < n; i++)
                    if ((bits[i >> 3] & (1 << (i & 7))) != 0) scratch[n + count++] = i;
                // Bits past the last sample are always written as 0; one set means the map is not one of ours.
                if (n % 8 != 0 && bits[^1] >> (n % 8) != 0) throw PackReader.Corrupt("a presence map has bits past its samples");
                if (count == 0 || count == n) throw PackReader.Corrupt("a presence map says some where it is none or all");
                return (count, false);
            case var other: throw PackReader.Corrupt($"a presence map has an unknown form {other}");
        }
    }

    /// <summary>The widest value an accumulator of 64 bits takes with up to 7 bits still held (wider ones go bit run by bit run).</summary>
    const int MaxAccumulated = 56;

    static int Width(ulong range) => 64 - System.Numerics.BitOperations.LeadingZeroCount(range);

    static int BitBytes(int count, int width) => (int)(((long)count * width + 7) / 8);

    /// <summary>Each value (or delta, from <paramref name="from"/> on) less <paramref name="min"/>, in <paramref name="width"/> bits, low bits first.</summary>
    static void WriteBits(PackWriter writer, ReadOnlySpan<long> values, int from, long min, int width, bool deltas)
    {
        var bytes = writer.Zeroed(BitBytes(values.Length - from, width));
        if (width <= MaxAccumulated)
        {
            // Through a 64-bit accumulator, whole bytes out as they fill: the same bits as the loop below, a byte at a time.
            ulong held = 0;
            int count = 0, at = 0;
            for (var i = from; i < values.Length; i++)
            {
                held |= unchecked((ulong)((deltas ? values[i] - values[i - 1] : values[i]) - min)) << count;
                for (count += width; count >= 8; count -= 8, held >>= 8) bytes[at++] = (byte)held;
            }
            if (count > 0) bytes[at] = (byte)held;
            return;
        }
        long bit = 0;
        for (var i = from; i < values.Length; i++)
        {
            var item = unchecked((ulong)((deltas ? values[i] - values[i - 1] : values[i]) - min));
            for (var put = 0; put < width;)
            {
                var at = (int)(bit >> 3);
                var offset = (int)(bit & 7);
                var take = Math.Min(width - put, 8 - offset);
                bytes[at] |= (byte)(((item >> put) & ((1UL << take) - 1)) << offset);
                put += take;
                bit += take;
            }
        }
    }

    static long RunSize(long value, long count) => Varints.Size(Varints.ZigZag(value)) + Varints.Size((ulong)(count - 1));

    static void WriteRun(PackWriter writer, long value, long count)
    {
        writer.Signed(value);
        writer.Unsigned((ulong)(count - 1));
    }
}
