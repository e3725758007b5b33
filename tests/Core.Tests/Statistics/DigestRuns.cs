using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Tests.Statistics;

/// <summary>
/// Seeded runs that exercise everything a digest holds: interleaved series with hits, errors of every sort and a
/// warm-up; shards of agents; an open-model run (lag, two bases); a plain HTTP run long enough for every window
/// length, slow at first (a detected warm-up) and with a slow stretch (an episode). Each in index order.
/// </summary>
public static class DigestRuns
{
    public static IReadOnlyList<(string Name, List<Sample> Samples)> All() =>
    [
        ("series", Series()),
        ("shards", Shards()),
        ("open", Open()),
        ("plain", Plain()),
    ];

    static List<Sample> Series()
    {
        var random = new Random(11);
        return Enumerable.Range(0, 6_000).Select(i =>
        {
            var error = (i % 311) switch { 0 => ErrorKind.ConnectionReset, 7 => ErrorKind.Timeout, 13 => ErrorKind.HttpStatus, _ => ErrorKind.None };
            return new Sample
            {
                RunId = 1, Index = i, IsWarmup = i < 60, OffsetNs = i * 3_000_000L + random.Next(1_000_000), Connection = i % 4,
                LatencyNs = 800_000 + random.Next(1_500_000) + (i % 400 == 0 ? 30_000_000 : 0),
                HeadersNs = error is ErrorKind.ConnectionReset or ErrorKind.Timeout ? null : 500_000 + random.Next(200_000),
                ConnectNs = i % 97 == 0 ? 60_000 + random.Next(30_000) : null,
                StatusCode = error switch { ErrorKind.HttpStatus => i % 2 == 0 ? 503 : 429, ErrorKind.None => i % 50 == 0 ? 304 : 200, _ => null },
                Bytes = error == ErrorKind.None ? 4_096 : 120, Error = error,
                Series = i % 3 == 0 ? "cold" : "warm", Hit = i % 3 == 0 ? i % 6 == 0 : null,
            };
        }).ToList();
    }

    static List<Sample> Shards()
    {
        var random = new Random(12);
        return Enumerable.Range(0, 5_000).Select(i => new Sample
        {
            RunId = 2, Index = i, IsWarmup = i < 30, OffsetNs = i * 2_000_000L, Connection = i % 8, Shard = i % 3,
            LatencyNs = (i % 3 == 2 ? 2_000_000 : 1_000_000) + random.Next(500_000),
            HeadersNs = 400_000 + random.Next(100_000), StatusCode = i % 211 == 0 ? 500 : 200,
            Error = i % 211 == 0 ? ErrorKind.HttpStatus : i % 877 == 0 ? ErrorKind.ConnectionRefused : ErrorKind.None, Bytes = 1_024,
        }).ToList();
    }

    static List<Sample> Open()
    {
        var random = new Random(13);
        return Enumerable.Range(0, 5_000).Select(i =>
        {
            var lag = i is > 2_000 and < 2_300 ? 5_000_000L + random.Next(3_000_000) : random.Next(400_000);
            var service = 900_000L + random.Next(600_000);
            return new Sample
            {
                RunId = 3, Index = i, IsWarmup = i < 50, OffsetNs = i * 1_000_000L, LagNs = lag, LatencyNs = lag + service, Connection = i % 16,
                HeadersNs = lag + service - 50_000, ConnectNs = i < 16 ? 70_000 : null, StatusCode = 200, Bytes = 512,
                Error = i % 1_499 == 0 ? ErrorKind.Timeout : ErrorKind.None,
            };
        }).ToList();
    }

    static List<Sample> Plain()
    {
        var random = new Random(14);
        return Enumerable.Range(0, 12_000).Select(i => new Sample
        {
            RunId = 4, Index = i, OffsetNs = i * 6_000_000L, Connection = i % 2,
            LatencyNs = 1_000_000 + random.Next(300_000) + (i < 600 ? (600 - i) * 20_000L : 0) + (i is > 7_000 and < 7_400 ? 4_000_000 : 0),
            HeadersNs = 700_000, StatusCode = 200, Bytes = 4_096, Error = i % 2_003 == 5 ? ErrorKind.Other : ErrorKind.None,
        }).ToList();
    }
}
