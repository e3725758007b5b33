using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

public sealed class VariantTurnsTests
{
    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(8)]
    public void EachVariantLeadsAboutItsShareOfRoundsAndNoLeaderFollowsAPattern(int variants)
    {
        const int rounds = 20_000;
        var leaders = Enumerable.Range(0, rounds).Select(round => VariantTurns.First(round, variants)).ToArray();

        Assert.All(leaders, leader => Assert.InRange(leader, 0, variants - 1));
        var share = 1.0 / variants;
        // Binomial: over 20,000 rounds ±0.02 is more than five standard deviations of a share, for every count here.
        foreach (var count in leaders.GroupBy(l => l).Select(g => g.Count())) Assert.InRange(count / (double)rounds, share - 0.02, share + 0.02);
        // A round led by the same variant as the one before as often as chance says: neither alternating (A B A B
        // would give 0) nor repeating, at lags 1 and 2 alike.
        foreach (var lag in new[] { 1, 2 })
        {
            var same = Enumerable.Range(lag, rounds - lag).Count(i => leaders[i] == leaders[i - lag]) / (double)(rounds - lag);
            Assert.InRange(same, share - 0.02, share + 0.02);
        }
    }

    [Fact]
    public void TheSameRoundAlwaysHasTheSameLeaderRoundZeroIsLedByTheFirstAndOneVariantAlwaysLeads()
    {
        Assert.All(new[] { 2, 3, 8 }, variants => Assert.Equal(0, VariantTurns.First(0, variants)));
        Assert.Equal(Enumerable.Range(0, 100).Select(r => VariantTurns.First(r, 4)), Enumerable.Range(0, 100).Select(r => VariantTurns.First(r, 4)));
        Assert.All(Enumerable.Range(0, 100), r => Assert.Equal(0, VariantTurns.First(r, 1)));
    }
}
