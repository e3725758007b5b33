using BenchDashboard.Runner.Http;
using Microsoft.Extensions.Logging.Abstractions;

namespace BenchDashboard.Runner.Tests.Http;

public sealed class SelfWarmupTests
{
    [Fact]
    public async Task EveryWarmUpRequestIsAnsweredByTheRunnersOwnLoopbackServer()
    {
        using var bounded = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        Assert.Equal(300, await SelfWarmup.RunAsync(300, NullLogger.Instance, bounded.Token));
    }
}
