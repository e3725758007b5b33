using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class RunStatisticsTests
{
    static Sample S(int index, double latencyMs, int? status = 200, ErrorKind error = ErrorKind.None, bool warmup = false,
        double offsetMs = double.NaN, long bytes = 100, double? connectMs = null) => new()
    {
        Index = index,
        LatencyNs = (long)(latencyMs * 1e6),
        HeadersNs = status is null ? null : (long)(latencyMs * 0.8e6),
        OffsetNs = (long)((double.IsNaN(offsetMs) ? index * 10 : offsetMs) * 1e6),
        StatusCode = status,
        Error = error,
        IsWarmup = warmup,
        Bytes = status is null ? 0 : bytes,
        ConnectNs = connectMs is { } c ? (long)(c * 1e6) : null,
    };

    [Fact]
    public void EveryMeasuredRequestIsCountedAndWarmupIsNot()
    {
        var samples = new List<Sample>
        {
            S(0, 400, warmup: true),
            S(1, 5), S(2, 6), S(3, 7, status: 500, error: ErrorKind.HttpStatus),
            S(4, 10_000, status: null, error: ErrorKind.Timeout),
            S(5, 1, status: null, error: ErrorKind.ConnectionRefused),
        };

        var stats = RunStatistics.From(samples);

        Assert.Equal(5, stats.Count);
        Assert.Equal(1, stats.WarmupCount);
        Assert.Equal(3, stats.Errors);
        Assert.Equal(1, stats.ErrorsByKind[ErrorKind.Timeout]);
        Assert.Equal(1, stats.ErrorsByKind[ErrorKind.ConnectionRefused]);
        Assert.Equal(1, stats.ErrorsByKind[ErrorKind.HttpStatus]);
        Assert.Equal(new ResponseClasses(0, 2, 0, 0, 1, 2), stats.Classes);
        // The 500 got a complete response, so it is ranked; the timeout and the refusal are not.
        Assert.Equal(3, stats.Latency!.Count);
        Assert.Equal(7_000_000, stats.Latency.MaxNs);
    }

    [Fact]
    public void ThroughputUsesTheSpanFromFirstMeasuredStartToLastMeasuredEnd()
    {
        var samples = new List<Sample>
        {
            S(0, 50, warmup: true, offsetMs: 0),
            S(1, 100, offsetMs: 1000),
            S(2, 100, offsetMs: 1400, bytes: 300),
            S(3, 100, offsetMs: 1900),
        };

        var stats = RunStatistics.From(samples);

        Assert.Equal(1_000_000_000, stats.ElapsedNs); // 1000 ms → 2000 ms
        Assert.Equal(3.0, stats.RequestsPerSecond, 9);
        Assert.Equal(500.0, stats.BytesPerSecond, 9);
    }

    [Fact]
    public void ColdFirstRequestIsShownApartFromTheWarmRest()
    {
        // Seed 002: with the cache, the first request took 411 ms and the other 99 about 0.8 ms.
        var samples = new List<Sample> { S(0, 411) };
        samples.AddRange(Enumerable.Range(1, 99).Select(i => S(i, 0.8)));

        var stats = RunStatistics.From(samples);

        Assert.Equal(411_000_000, stats.Cold!.First.LatencyNs);
        Assert.Equal(99, stats.Cold.WarmRest!.Count);
        Assert.Equal(800_000, stats.Cold.WarmRest.P50Ns);
        Assert.Equal(800_000, stats.Cold.WarmRest.MaxNs);
        Assert.Equal(411_000_000, stats.Latency!.MaxNs);
    }

    [Fact]
    public void ConnectionTimesFollowAbsDefinitions()
    {
        var samples = new List<Sample> { S(0, 10, connectMs: 2), S(1, 8) };

        var stats = RunStatistics.From(samples);

        Assert.Equal(1, stats.Connect!.Count);
        Assert.Equal(2_000_000, stats.Connect.P50Ns);
        Assert.Equal([6_000_000, 6_400_000], new[] { stats.Waiting!.MinNs, stats.Waiting.MaxNs }); // headers − connect
        Assert.Equal([8_000_000, 8_000_000], new[] { stats.Processing!.MinNs, stats.Processing.MaxNs }); // total − connect
    }

    [Fact]
    public void NoSamplesGiveZerosNotExceptions()
    {
        var stats = RunStatistics.From([]);

        Assert.Equal(0, stats.Count);
        Assert.Equal(0, stats.RequestsPerSecond);
        Assert.Null(stats.Latency);
        Assert.Null(stats.Cold);
    }
}
