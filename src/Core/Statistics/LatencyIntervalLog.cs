using System.Text;
using HdrHistogram;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// A run's latencies as an HdrHistogram interval log (.hlog), the format HdrHistogram's own tools read
/// (HistogramLogReader, the Java HistogramLogProcessor, the online log plotter). One interval per second of the
/// run, by each operation's start (its due time in the open model), so a stall shows in the second it began;
/// seconds in which nothing started are empty intervals. Values are nanoseconds recorded at
/// <see cref="LiveHistogram.SignificantDigits"/> significant digits (each within 1/1024 of itself); the writer
/// gives each interval's maximum in milliseconds, which is what the Java tools' default unit ratio (10⁶) expects.
/// The exact figures stay those of the stored samples: this is for the tools.
/// </summary>
public static class LatencyIntervalLog
{
    /// <summary>An operation: when it started (or was due) since the run's start, and its latency.</summary>
    public readonly record struct Operation(long OffsetNs, long LatencyNs);

    /// <param name="startUtc">The run's start: interval timestamps count from it.</param>
    /// <param name="byStart">The operations in the order they started (by <see cref="Operation.OffsetNs"/>).</param>
    /// <param name="comments">Lines for the reader (units, what was left out), written as the log's comments.</param>
    public static async Task WriteAsync(Stream output, DateTime startUtc, IAsyncEnumerable<Operation> byStart, IEnumerable<string> comments, CancellationToken ct)
    {
        var utf8 = new UTF8Encoding(false);
        foreach (var comment in comments) await output.WriteAsync(utf8.GetBytes($"#[{comment}]\n"), ct);

        // HistogramLogWriter writes UTF-16, which the Java tools cannot read: each piece it writes is passed on
        // as UTF-8 (the log is ASCII), so a long run's log never sits in memory whole.
        using var buffer = new MemoryStream();
        using var writer = new HistogramLogWriter(buffer);
        writer.Write(startUtc); // the header: format version, start time, legend
        await PassOnAsync(buffer, output, ct);

        var startMs = new DateTimeOffset(startUtc).ToUnixTimeMilliseconds();
        var interval = new LongHistogram(LiveHistogram.HighestNs, LiveHistogram.SignificantDigits);
        long? second = null;
        async Task CloseAsync(long s)
        {
            interval.StartTimeStamp = startMs + s * 1000;
            interval.EndTimeStamp = startMs + (s + 1) * 1000;
            writer.Append(interval);
            interval.Reset();
            await PassOnAsync(buffer, output, ct);
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

    static async Task PassOnAsync(MemoryStream buffer, Stream output, CancellationToken ct)
    {
        var text = Encoding.Unicode.GetString(buffer.GetBuffer(), 0, (int)buffer.Length).TrimStart('\uFEFF');
        buffer.SetLength(0);
        await output.WriteAsync(Encoding.UTF8.GetBytes(text), ct);
    }
}
