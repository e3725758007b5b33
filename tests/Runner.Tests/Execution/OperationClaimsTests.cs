using System.Diagnostics;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

public class OperationClaimsTests
{
    [Fact]
    public async Task ACountIsHandedOutOnceEachAcrossWorkersWithoutGaps()
    {
        var claim = OperationClaims.UpTo(10_000);
        var taken = await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(() =>
        {
            var mine = new List<long>();
            while (claim() is var i && i >= 0) mine.Add(i);
            return mine;
        })));

        Assert.Equal(Enumerable.Range(0, 10_000).Select(i => (long)i), taken.SelectMany(t => t).Order());
        Assert.Equal(-1, claim());
    }

    [Fact]
    public async Task ADurationStartsWithTheFirstClaimNotWhenTheClaimIsMade()
    {
        var claim = OperationClaims.For(TimeSpan.FromMilliseconds(300));
        await Task.Delay(500); // workers that start late

        var start = Stopwatch.GetTimestamp();
        var count = 0;
        while (claim() >= 0) count++;
        var elapsed = Stopwatch.GetElapsedTime(start);

        Assert.True(count > 0);
        Assert.InRange(elapsed.TotalMilliseconds, 299, 2_000);
    }
}
