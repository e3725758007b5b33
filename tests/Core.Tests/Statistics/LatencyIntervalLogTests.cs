using System.Buffers.Binary;
using System.IO.Compression;
using System.Text;
using BenchDashboard.Core.Statistics;
using HdrHistogram;

namespace BenchDashboard.Core.Tests.Statistics;

public class LatencyIntervalLogTests
{
    static readonly DateTime Start = new(2026, 11, 25, 3, 0, 0, DateTimeKind.Utc);

    // Seconds 0, 1 and 3: second 2, in which nothing started, must still be an (empty) interval.
    static readonly LatencyIntervalLog.Operation[] Operations =
    [
        new(0, 1_500), new(400_000_000, 2_000_000), new(999_999_999, 7_000),
        new(1_000_000_000, 3_000_000),
        new(3_200_000_000, 250_000_000), new(3_900_000_000, 10_000),
    ];

    [Fact]
    public async Task EachSecondIsAnIntervalOnTheClockWithTheOperationsThatStartedInIt()
    {
        var log = await WriteAsync(Operations);

        using var reader = new HistogramLogReader(new MemoryStream(log));
        var intervals = reader.ReadHistograms().ToList();

        Assert.Equal([3L, 1, 0, 2], intervals.Select(h => h.TotalCount));
        var startMs = new DateTimeOffset(Start).ToUnixTimeMilliseconds();
        Assert.Equal([startMs, startMs + 1000, startMs + 2000, startMs + 3000], intervals.Select(h => h.StartTimeStamp));
        Assert.All(intervals, h => Assert.Equal(1000, h.EndTimeStamp - h.StartTimeStamp));
        Assert.Equal(1_500, intervals[0].GetValueAtPercentile(1)); // below 2,048 ns every value is exact
        Assert.Equal(250_000_000, intervals[3].GetMaxValue(), tolerance: 250_000_000 / 1024.0);
    }

    [Fact]
    public async Task EveryHistogramIsACompleteZlibStreamAsTheJavaScriptAndPythonReadersRequire()
    {
        var lines = Encoding.ASCII.GetString(await WriteAsync(Operations)).Split('\n').Where(l => l.Length > 0 && char.IsDigit(l[0])).ToList();

        Assert.Equal(4, lines.Count);
        foreach (var line in lines)
        {
            var bytes = Convert.FromBase64String(line.Split(',')[3]);
            Assert.Equal(0x1c849314, BinaryPrimitives.ReadInt32BigEndian(bytes));
            Assert.Equal(bytes.Length - 8, BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(4)));
            using var inflated = new MemoryStream();
            using (var zlib = new ZLibStream(new MemoryStream(bytes, 8, bytes.Length - 8), CompressionMode.Decompress)) zlib.CopyTo(inflated);
            // The stream ends with the Adler-32 of what it holds: HistogramLogWriter's (2.5.0) stops short of it.
            Assert.Equal(Adler32(inflated.ToArray()), BinaryPrimitives.ReadUInt32BigEndian(bytes.AsSpan(bytes.Length - 4)));
        }
    }

    [Fact]
    public async Task OperationsOutOfOrderAreRefused() =>
        await Assert.ThrowsAsync<ArgumentException>(() => WriteAsync([new(2_000_000_000, 1), new(1_000_000_000, 1)]));

    static async Task<byte[]> WriteAsync(IEnumerable<LatencyIntervalLog.Operation> operations)
    {
        using var output = new MemoryStream();
        await LatencyIntervalLog.WriteAsync(output, Start, operations.ToAsyncEnumerable(), ["values in nanoseconds"], default);
        return output.ToArray();
    }

    static uint Adler32(byte[] data)
    {
        uint a = 1, b = 0;
        foreach (var d in data)
        {
            a = (a + d) % 65521;
            b = (b + a) % 65521;
        }
        return b << 16 | a;
    }
}
