using BenchDashboard.Core.Agents;

namespace BenchDashboard.Core.Tests.Agents;

public class ClockOffsetTests
{
    [Fact]
    public void TheExchangeWithTheShortestRoundTripGivesTheOffset()
    {
        // The dashboard's clock is 5 ms ahead. Exchange 1: 2 ms out, 8 ms back (rtt 10 ms: the midpoint is off by 3 ms).
        // Exchange 2: 0.5 ms each way (rtt 1 ms): exact. Exchange 3: rtt 4 ms, symmetric.
        var best = ClockOffset.Best([
            (1_000_000, 1_000_000 + 2_000 + 5_000, 1_010_000),
            (2_000_000, 2_000_000 + 500 + 5_000, 2_001_000),
            (3_000_000, 3_000_000 + 2_000 + 5_000, 3_004_000),
        ])!;

        Assert.Equal(5.0, best.OffsetMs, 9);
        Assert.Equal(1.0, best.RoundTripMs, 9);
        Assert.Equal(0.5, best.ErrorBoundMs, 9);
    }

    [Fact]
    public void AnAsymmetricRoundTripIsOffByAtMostHalfOfIt()
    {
        // All of a 10 ms round trip on the way back: the estimate is 5 ms off, exactly its bound.
        var only = ClockOffset.Best([(0, 0, 10_000)])!;
        Assert.Equal(-5.0, only.OffsetMs, 9);
        Assert.Equal(only.ErrorBoundMs, Math.Abs(only.OffsetMs - 0), 9);
    }

    [Fact]
    public void NoUsableExchangeGivesNoEstimate()
    {
        Assert.Null(ClockOffset.Best([]));
        Assert.Null(ClockOffset.Best([(5_000, 1, 4_000)])); // the agent's clock stepped back
    }

    [Theory]
    [InlineData("alpha", true)]
    [InlineData("agent-2.eu_west", true)]
    [InlineData("", false)]
    [InlineData("has space", false)]
    [InlineData("slash/name", false)]
    public void AgentNamesAreShortAndPlain(string name, bool valid) => Assert.Equal(valid, AgentProtocol.IsValidName(name));
}
