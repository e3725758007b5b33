using System.Text.Json;

namespace BenchDashboard.Cli.Tests;

/// <summary>The installed benchdash gating a slot swap (deploy/swap-if-passed.sh) on runs from a file.</summary>
[Collection(DashboardCollection.Name)]
public sealed class SlotGateTests(PublishedDashboard published, InstalledTool tool) : IClassFixture<InstalledTool>, IDisposable
{
    readonly SlotGate gate = new();

    string ParametersFile(object body)
    {
        var path = gate.PathOf(Guid.NewGuid().ToString("n") + ".json");
        File.WriteAllText(path, JsonSerializer.Serialize(body));
        return path;
    }

    [Fact]
    public async Task ARunThatPassesSwapsTheSlot()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 50, keyCount = 10 });

        var result = await gate.RunAsync(tool, Client.For(published.Shared), "bench-rg", "bench-app", "--", "--file", file);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("Result:                         passed (exit 0)", result.Out);
        Assert.Equal("az webapp deployment slot swap --resource-group bench-rg --name bench-app --slot staging --target-slot production\n", gate.AzCalls);
    }

    [Fact]
    public async Task ARunThatFailsLeavesProductionAlone()
    {
        var file = ParametersFile(new { kind = "cache", backend = "redis", connection = "redis", requests = 10, keyCount = 5 });

        var result = await gate.RunAsync(tool, Client.For(published.Shared), "bench-rg", "bench-app", "--slot", "canary", "--", "--file", file);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains("Not swapping: the benchmark run failed or could not start", result.Out);
        Assert.Equal("", gate.AzCalls);
    }

    [Fact]
    public async Task AWrongKeyLeavesProductionAloneAndSaysWhy()
    {
        var file = ParametersFile(new { kind = "cache", backend = "memory", requests = 10, keyCount = 5 });

        var result = await gate.RunAsync(tool, Client.For(published.Shared, key: "wrong"), "bench-rg", "bench-app", "--", "--file", file);

        Assert.Equal(2, result.ExitCode);
        Assert.Equal("401: the API key was refused", result.Error.Trim());
        Assert.Equal("", gate.AzCalls);
    }

    public void Dispose() => gate.Dispose();
}
