using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Xunit.Abstractions;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// A run on each configuration's agent, as real processes on loopback (the published dashboard and agents started from
/// the same output, each with its own WEBSITE_DYNAMIC_CACHE): the answer has a row per configuration with the setting
/// its own process recorded, every request counted, and a row for the configuration whose agent never came.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class OnEachAnswerTests(PublishedOutput published, ITestOutputHelper output)
{
    [Fact]
    public async Task EachConfigurationIsARowWithTheSettingItsAgentRecordedAndTheOneThatNeverJoinedSaysSo()
    {
        using var dir = new TempDirectory();
        await using var dashboard = await Dashboard.StartAsync(published, dir, new()
        {
            ["Agents__Keys__cfg0"] = "cfg0-key", ["Agents__Keys__cfg1"] = "cfg1-key", ["Agents__Keys__cfg2"] = "cfg2-key",
        });
        await using var cfg0 = dashboard.StartAgent(published, dir, "cfg0", "cfg0-key", new() { ["WEBSITE_DYNAMIC_CACHE"] = "0" });
        await using var cfg1 = dashboard.StartAgent(published, dir, "cfg1", "cfg1-key", new() { ["WEBSITE_DYNAMIC_CACHE"] = "1" });
        await dashboard.UntilAgentAsync("cfg0", linked: true);
        await dashboard.UntilAgentAsync("cfg1", linked: true);

        // cfg2 has a key but no process: it never joins.
        var created = await dashboard.Client.PostAsJsonAsync("/api/runs", new
        {
            kind = "http", url = $"http://127.0.0.1:{dashboard.Port}/target/delay?ms=1", requests = 25, concurrency = 1, warmupRequests = 0,
            onEach = new[] { "cfg0", "cfg1", "cfg2" }, rounds = 2,
        });
        Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        var run = await DashboardFactory.WaitForEndAsync(dashboard.Client, id);
        output.WriteLine($"run {id}: {run.GetProperty("status").GetString()}: {(run.TryGetProperty("error", out var e) ? e.ToString() : "")}");

        var markdown = await dashboard.Client.GetStringAsync($"/api/runs/{id}?format=markdown");
        output.WriteLine(markdown[..markdown.IndexOf("####", markdown.IndexOf("####", StringComparison.Ordinal) + 4, StringComparison.Ordinal)]);
        var table = MarkdownTables.Find(markdown, "Configuration");
        Assert.Equal(["cfg0", "cfg1", "cfg2"], table.Skip(1).Select(r => r[0]));
        // Each setting as its own agent's process recorded it, and each one's every request: 25 a turn, 2 turns.
        Assert.Equal(["WEBSITE_DYNAMIC_CACHE=0", "50", "0"], table[1].Skip(1).Take(3));
        Assert.Equal(["WEBSITE_DYNAMIC_CACHE=1", "50", "0"], table[2].Skip(1).Take(3));
        Assert.EndsWith("(baseline)", table[1][5]);
        Assert.Matches(@"^\d+\.\d{3} \(\d+\.\d %, ", table[2][5]);
        Assert.Equal("–", table[3][2]);
        Assert.Contains("did not join within", table[3][^1]);
        Assert.Equal("done", table[1][^1]);
        Assert.Equal("done", table[2][^1]);
    }
}
