using System.Buffers;

namespace BenchDashboard.Core.Runs.Packing;

/// <summary>
/// A block of one run's samples (of one series) as bytes, each column apart (docs/storage.md, "Samples in packed
/// blocks"): a version byte, the count, then index, offset, latency, lag, headers, connect, status, bytes, error,
/// warm-up, connection, shard and hit, each written the shortest of its forms (<see cref="PackedColumns"/>). Headers are
/// kept as what the latency has beyond them (the body's time, plus the lag in the open model), a small number where
/// the headers themselves are not. The run and the series are the block's row's, not its bytes'. Samples come back
/// in the order they were packed, every field as it was.
/// </summary>
public static class SamplePacking
{
    /// <summary>The samples a block holds at most (about 20-40 KB packed for HTTP).</summary>
    public const int BlockSamples = 4096;

    /// <summary>What a block that cannot hold more is refused beyond, so corrupt bytes cannot ask for a huge array.</summary>
    const int MaxSamples = 1 << 20;

    const byte Version = 1;

    public static byte[] Pack(IReadOnlyList<Sample> samples)
    {
        if (samples.Count > MaxSamples) throw new ArgumentException($"A block holds at most {MaxSamples} samples.", nameof(samples));
        var n = samples.Count;
        var scratch = ArrayPool<long>.Shared.Rent(Math.Max(n, 1));
        using var writer = new PackWriter(16 + n * 12);
        try
        {
            writer.Byte(Version);
            writer.Unsigned((ulong)n);
            var values = scratch.AsSpan(0, n);
            Integers(writer, samples, values, s => s.Index);
            Integers(writer, samples, values, s => s.OffsetNs);
            Integers(writer, samples, values, s => s.LatencyNs);
            PackedColumns.WriteNullable(writer, samples, s => s.LagNs, values);
            PackedColumns.WriteNullable(writer, samples, s => s.HeadersNs is { } headers ? unchecked(s.LatencyNs - headers) : null, values);
            PackedColumns.WriteNullable(writer, samples, s => s.ConnectNs, values);
            PackedColumns.WriteNullable(writer, samples, s => s.StatusCode, values);
            Integers(writer, samples, values, s => s.Bytes);
            Integers(writer, samples, values, s => (long)s.Error);
            PackedColumns.WriteFlags(writer, samples, s => s.IsWarmup);
            Integers(writer, samples, values, s => s.Connection);
            PackedColumns.WriteNullable(writer, samples, s => s.Shard, values);
            PackedColumns.WriteFlags(writer, samples, s => s.Hit is not null);
            PackedColumns.WriteFlags(writer, samples, s => s.Hit is true);
            return writer.ToArray();
        }
        finally
        {
            ArrayPool<long>.Shared.Return(scratch);
        }
    }

    /// <summary>The samples of a block, with the run and series of its row.</summary>
    public static Sample[] Unpack(ReadOnlySpan<byte> data, long runId, string? series)
    {
        var reader = new PackReader(data);
        var version = reader.Byte();
        if (version != Version) throw PackReader.Corrupt($"its version is {version}, this build reads {Version}");
        var count = reader.Unsigned();
        if (count > MaxSamples) throw PackReader.Corrupt($"it says it holds {count} samples");
        var n = (int)count;
        var samples = new Sample[n];
        for (var i = 0; i < n; i++) samples[i] = new Sample { RunId = runId, Series = series };
        // Twice the samples: values at the start, a presence map's indexes after them.
        var scratch = ArrayPool<long>.Shared.Rent(Math.Max(2 * n, 1));
        try
        {
            var values = scratch.AsSpan(0, 2 * n);
            Integers(ref reader, samples, values, (s, v) => s.Index = Int(v));
            Integers(ref reader, samples, values, (s, v) => s.OffsetNs = v);
            Integers(ref reader, samples, values, (s, v) => s.LatencyNs = v);
            PackedColumns.ReadNullable(ref reader, samples, (s, v) => s.LagNs = v, values);
            PackedColumns.ReadNullable(ref reader, samples, (s, v) => s.HeadersNs = unchecked(s.LatencyNs - v), values);
            PackedColumns.ReadNullable(ref reader, samples, (s, v) => s.ConnectNs = v, values);
            PackedColumns.ReadNullable(ref reader, samples, (s, v) => s.StatusCode = Int(v), values);
            Integers(ref reader, samples, values, (s, v) => s.Bytes = v);
            Integers(ref reader, samples, values, (s, v) => s.Error = Error(v));
            PackedColumns.ReadFlags(ref reader, samples, s => s.IsWarmup = true, values);
            Integers(ref reader, samples, values, (s, v) => s.Connection = Int(v));
            PackedColumns.ReadNullable(ref reader, samples, (s, v) => s.Shard = Int(v), values);
            PackedColumns.ReadFlags(ref reader, samples, s => s.Hit = false, values);
            PackedColumns.ReadFlags(ref reader, samples, s => s.Hit = s.Hit is not null ? true : throw PackReader.Corrupt("a hit is set on a sample without one"), values);
            if (!reader.AtEnd) throw PackReader.Corrupt("it has bytes after its last column");
            return samples;
        }
        finally
        {
            ArrayPool<long>.Shared.Return(scratch);
        }
    }

    static void Integers(PackWriter writer, IReadOnlyList<Sample> samples, Span<long> values, Func<Sample, long> read)
    {
        for (var i = 0; i < samples.Count; i++) values[i] = read(samples[i]);
        PackedColumns.WriteIntegers(writer, values[..samples.Count]);
    }

    static void Integers(ref PackReader reader, Sample[] samples, Span<long> scratch, Action<Sample, long> set)
    {
        var values = scratch[..samples.Length];
        PackedColumns.ReadIntegers(ref reader, values);
        for (var i = 0; i < samples.Length; i++) set(samples[i], values[i]);
    }

    static int Int(long value) =>
        value is >= int.MinValue and <= int.MaxValue ? (int)value : throw PackReader.Corrupt($"{value} does not fit its 32-bit column");

    static ErrorKind Error(long value) =>
        value is >= int.MinValue and <= int.MaxValue ? (ErrorKind)(int)value : throw PackReader.Corrupt($"error {value} does not fit its column");
}
