using BenchDashboard.Processing;
using BenchDashboard.Web.Runners;

namespace BenchDashboard.Web.Tests.Runners;

public sealed class ChildRuntimeSettingsTests
{
    static string Settings(RunnerOptions options, Dictionary<string, string>? own = null) =>
        string.Join(" ", ChildRuntimeSettings.For(options, name => own?.GetValueOrDefault(name)).Select(s => $"{s.Name}={s.Value}"));

    [Fact]
    public void ByDefaultTheChildRunsCompletionsInlineOnOneEventThreadWithoutDynamicPgo() =>
        Assert.Equal("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=1 DOTNET_TieredPGO=0", Settings(new RunnerOptions()));

    [Fact]
    public void EachIsTurnedOffOrOnWhenAskedTo() =>
        Assert.Equal("DOTNET_TieredPGO=1", Settings(new RunnerOptions { InlineSocketCompletions = false, ChildDynamicPgo = true }));

    [Fact]
    public void AValueInTheDashboardsOwnEnvironmentWins() =>
        Assert.Equal("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1",
            Settings(new RunnerOptions(), new() { ["DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT"] = "2", ["DOTNET_TieredPGO"] = "1" }));
}
