using System.Buffers.Binary;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Agents;

/// <summary>Which shard's samples a frame carries, under which lease epoch, and its place in the shard's sequence (from 0).</summary>
public readonly record struct SampleBatchHeader(int Shard, long Epoch, long Sequence, int Count);

/// <summary>
/// Samples from an agent to the dashboard as binary WebSocket messages: a header (version, shard,
/// epoch, sequence, count) and then fixed-size records, little-endian, so encoding is copying and a frame's
/// size is known from its count. A series is its position in the run's planned series (−1: none); absent
/// optional times are −1. The index is the agent's own numbering: the dashboard numbers samples again as it
/// stores them, since several agents' indexes overlap.
/// </summary>
public static class SampleFrames
{
    public const byte Version = 1;
    public const int HeaderBytes = 1 + 4 + 8 + 8 + 4;
    public const int RecordBytes = 4 + 8 + 8 + 8 + 8 + 8 + 4 + 8 + 1 + 1 + 2 + 4;

    /// <summary>At most this many samples a frame: 256 KiB, small enough to interleave with control frames.</summary>
    public const int MaxCount = 4096;

    const byte Warmup = 1, HitKnown = 2, Hit = 4;

    public static int SizeOf(int count) => HeaderBytes + count * RecordBytes;

    public static byte[] Encode(SampleBatchHeader header, IReadOnlyList<Sample> samples, IReadOnlyList<string> series)
    {
        if (samples.Count != header.Count || samples.Count > MaxCount)
            throw new ArgumentException($"A frame carries its header's count of samples, at most {MaxCount}.", nameof(samples));
        var frame = new byte[SizeOf(samples.Count)];
        var span = frame.AsSpan();
        span[0] = Version;
        BinaryPrimitives.WriteInt32LittleEndian(span[1..], header.Shard);
        BinaryPrimitives.WriteInt64LittleEndian(span[5..], header.Epoch);
        BinaryPrimitives.WriteInt64LittleEndian(span[13..], header.Sequence);
        BinaryPrimitives.WriteInt32LittleEndian(span[21..], header.Count);
        var at = HeaderBytes;
        foreach (var s in samples)
        {
            var r = span.Slice(at, RecordBytes);
            BinaryPrimitives.WriteInt32LittleEndian(r, s.Index);
            BinaryPrimitives.WriteInt64LittleEndian(r[4..], s.OffsetNs);
            BinaryPrimitives.WriteInt64LittleEndian(r[12..], s.LatencyNs);
            BinaryPrimitives.WriteInt64LittleEndian(r[20..], s.LagNs ?? -1);
            BinaryPrimitives.WriteInt64LittleEndian(r[28..], s.HeadersNs ?? -1);
            BinaryPrimitives.WriteInt64LittleEndian(r[36..], s.ConnectNs ?? -1);
            BinaryPrimitives.WriteInt32LittleEndian(r[44..], s.StatusCode ?? -1);
            BinaryPrimitives.WriteInt64LittleEndian(r[48..], s.Bytes);
            r[56] = (byte)s.Error;
            r[57] = (byte)((s.IsWarmup ? Warmup : 0) | (s.Hit is null ? 0 : HitKnown) | (s.Hit == true ? Hit : 0));
            BinaryPrimitives.WriteInt16LittleEndian(r[58..], s.Series is null ? (short)-1 : SeriesIndex(series, s.Series));
            BinaryPrimitives.WriteInt32LittleEndian(r[60..], s.Connection);
            at += RecordBytes;
        }
        return frame;
    }

    /// <summary>The header and samples of a frame; a frame of another version, or whose size does not match its count, is refused.</summary>
    public static (SampleBatchHeader Header, List<Sample> Samples) Decode(ReadOnlySpan<byte> frame, IReadOnlyList<string> series)
    {
        if (frame.Length < HeaderBytes || frame[0] != Version) throw new InvalidDataException("Not a sample frame of version 1.");
        var header = new SampleBatchHeader(BinaryPrimitives.ReadInt32LittleEndian(frame[1..]), BinaryPrimitives.ReadInt64LittleEndian(frame[5..]),
            BinaryPrimitives.ReadInt64LittleEndian(frame[13..]), BinaryPrimitives.ReadInt32LittleEndian(frame[21..]));
        if (header.Count is < 0 or > MaxCount || frame.Length != SizeOf(header.Count))
            throw new InvalidDataException($"A sample frame of {frame.Length:N0} bytes cannot hold {header.Count:N0} samples.");
        var samples = new List<Sample>(header.Count);
        for (var at = HeaderBytes; at < frame.Length; at += RecordBytes)
        {
            var r = frame.Slice(at, RecordBytes);
            var error = r[56];
            var flags = r[57];
            var seriesIndex = BinaryPrimitives.ReadInt16LittleEndian(r[58..]);
            if (!Enum.IsDefined((ErrorKind)error) || (seriesIndex != -1 && (seriesIndex < 0 || seriesIndex >= series.Count)))
                throw new InvalidDataException("A sample with an unknown error kind or series.");
            samples.Add(new Sample
            {
                Index = BinaryPrimitives.ReadInt32LittleEndian(r),
                OffsetNs = BinaryPrimitives.ReadInt64LittleEndian(r[4..]),
                LatencyNs = BinaryPrimitives.ReadInt64LittleEndian(r[12..]),
                LagNs = Optional(BinaryPrimitives.ReadInt64LittleEndian(r[20..])),
                HeadersNs = Optional(BinaryPrimitives.ReadInt64LittleEndian(r[28..])),
                ConnectNs = Optional(BinaryPrimitives.ReadInt64LittleEndian(r[36..])),
                StatusCode = BinaryPrimitives.ReadInt32LittleEndian(r[44..]) is var status && status >= 0 ? status : null,
                Bytes = BinaryPrimitives.ReadInt64LittleEndian(r[48..]),
                Error = (ErrorKind)error,
                IsWarmup = (flags & Warmup) != 0,
                Hit = (flags & HitKnown) == 0 ? null : (flags & Hit) != 0,
                Series = seriesIndex == -1 ? null : series[seriesIndex],
                Connection = BinaryPrimitives.ReadInt32LittleEndian(r[60..]),
            });
        }
        return (header, samples);
    }

    static long? Optional(long value) => value >= 0 ? value : null;

    static short SeriesIndex(IReadOnlyList<string> series, string name)
    {
        for (short i = 0; i < series.Count; i++)
            if (series[i] == name) return i;
        throw new ArgumentException($"'{name}' is not among the run's planned series.", nameof(name));
    }
}
