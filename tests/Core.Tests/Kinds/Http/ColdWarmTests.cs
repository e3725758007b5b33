using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Kinds.Http;

public class ColdWarmTests
{
    static Sample S(int index, double ms, bool warmup = false, ErrorKind error = ErrorKind.None) =>
        new() { Index = index, LatencyNs = (long)(ms * 1e6), StatusCode = 200, IsWarmup = warmup, Error = error };

    [Fact]
    public void SeedTwosRunReadsAsTheFirstRequestAgainstTheWarmMedian()
    {
        // ab -n 100 with the disk cache: the first request 411 ms, the other 99 about 0.8 ms.
        var samples = new[] { S(0, 411) }.Concat(Enumerable.Range(1, 99).Select(i => S(i, i % 2 == 0 ? 0.7 : 0.8))).ToList();

        var answer = ColdWarm.From(ColdStart.From(samples))!;

        Assert.Equal(411_000_000, answer.FirstNs);
        Assert.Equal(99, answer.WarmCount);
        Assert.Equal(800_000, answer.WarmMedianNs); // 50 of 99 are 0.8 ms: rank 50 is the first of them
        Assert.Equal(513.75, answer.TimesFasterWarm!.Value, 6);
        Assert.Equal("514× faster warm", answer.RatioText);
    }

    [Fact]
    public void AWarmRestSlowerThanTheFirstRequestIsSaidSo()
    {
        var samples = new[] { S(0, 1) }.Concat(Enumerable.Range(1, 9).Select(i => S(i, 2))).ToList();

        Assert.Equal("2.00× slower warm", ColdWarm.From(ColdStart.From(samples))!.RatioText);
    }

    [Fact]
    public void ARunOfOneRequestHasNoWarmRestToCompare()
    {
        var answer = ColdWarm.From(ColdStart.From([S(0, 411)]))!;

        Assert.Null(answer.WarmMedianNs);
        Assert.Null(answer.TimesFasterWarm);
        Assert.Null(ColdWarm.From(null));
    }
}
