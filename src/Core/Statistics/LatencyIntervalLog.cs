using System.Buffers.Binary;
using System.Globalization;
using System.IO.Compression;
using System.Text;
using HdrHistogram;
using HdrHistogram.Encoding;
using HdrHistogram.Utilities;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A run's latencies as an HdrHistogram interval log (.hlog, log format 1.3), which HdrHistogram's own tools
/// read (its readers for .NET, Java, JavaScript and Python, the Java HistogramLogProcessor, the online plotter).
/// One interval per second of the run, by each operation's start (its due time in the open model), so a stall
/// shows in the second it began; seconds in which nothing started are empty intervals. Values are nanoseconds
/// recorded at <see cref="LiveHistogram.SignificantDigits"/> significant digits (each within 1/1024 of itself);
/// each interval's maximum column is in milliseconds, as the Java tools' default unit ratio (10⁶) expects.
/// The exact figures stay those of the stored samples: this is for the tools.
/// </summary>
/// <remarks>
/// The histograms are HdrHistogram.NET's and so is their encoding (V2); the lines around them are written here,
/// not by its HistogramLogWriter, whose compressed form (2.5.0) has no zlib checksum at the end: the .NET and
/// Java readers pass over that, the JavaScript reader (and with it the online plotter) and the Python one refuse
/// it, and it writes UTF-16, which the Java tools cannot read. <see cref="ZLibStream"/> writes a complete stream.
/// </remarks>
public static class LatencyIntervalLog
{
    /// <summary>An operation: when it started (or was due) since the run's start, and its latency.</summary>
    public readonly record struct Operation(long OffsetNs, long LatencyNs);

    /// <summary>The format's cookie for a V2-encoded histogram of 8-byte counts, compressed.</summary>
    const int CompressedV2Cookie = 0x1c849314;

    /// <param name="startUtc">The run's start: interval timestamps count from it.</param>
    /// <param name="byStart">The operations in the order they started (by <see cref="Operation.OffsetNs"/>).</param>
    /// <param name="comments">Lines for the reader (units, what was left out), written as the log's comments.</param>
    public static async Task WriteAsync(Stream output, DateTime startUtc, IAsyncEnumerable<Operation> byStart, IEnumerable<string> comments, CancellationToken ct)
    {
        await using var log = new StreamWriter(output, new UTF8Encoding(false), 64 * 1024, leaveOpen: true) { NewLine = "\n" };
        foreach (var comment in comments) await log.WriteLineAsync($"#[{comment}]");
        var startMs = new DateTimeOffset(startUtc).ToUnixTimeMilliseconds();
        await log.WriteLineAsync("#[Histogram log format version 1.3]");
        await log.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"#[StartTime: {startMs / 1000.0:F3} (seconds since epoch), {startUtc:o}]"));
        await log.WriteLineAsync("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"");

        var interval = new LongHistogram(LiveHistogram.HighestNs, LiveHistogram.SignificantDigits);
        var encoded = ByteBuffer.Allocate(interval.GetNeededByteBufferCapacity());
        long? second = null;
        async Task CloseAsync(long s)
        {
            // Timestamps are absolute seconds since the epoch, as HistogramLogWriter writes them.
            await log.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                $"{(startMs + s * 1000) / 1000.0:F3},1.000,{interval.GetMaxValue() / 1e6:F3},{Convert.ToBase64String(Compressed(interval, encoded))}"));
            interval.Reset();
        }

        await foreach (var operation in byStart.WithCancellation(ct))
        {
            var s = Math.Max(0, operation.OffsetNs) / 1_000_000_000;
            second ??= s;
            if (s < second) throw new ArgumentException("The operations must come in the order they started.", nameof(byStart));
            for (; second < s; second++) await CloseAsync(second.Value);
            interval.RecordValue(Math.Clamp(operation.LatencyNs, 0, LiveHistogram.HighestNs));
        }
        if (second is { } last) await CloseAsync(last);
    }

    /// <summary>The histogram in the format's compressed form: cookie, length, then its V2 encoding as a zlib stream.</summary>
    static byte[] Compressed(HistogramBase histogram, ByteBuffer buffer)
    {
        buffer.Position = 0;
        var encoded = new byte[histogram.Encode(buffer, HistogramEncoderV2.Instance)];
        buffer.Position = 0;
        for (var i = 0; i < encoded.Length; i++) encoded[i] = buffer.Get(); // its only public way out: a few KB
        using var compressed = new MemoryStream();
        compressed.Position = 8;
        using (var zlib = new ZLibStream(compressed, CompressionLevel.Optimal, leaveOpen: true)) zlib.Write(encoded);
        var bytes = compressed.ToArray();
        BinaryPrimitives.WriteInt32BigEndian(bytes, CompressedV2Cookie);
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(4), bytes.Length - 8);
        return bytes;
    }
}
