using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>A journey's data file read each row once, spread over two agent processes: every row signs in once, on one agent.</summary>
[Collection(PublishedApps.Collection)]
public sealed class JourneyDataAgentTests(PublishedOutput published)
{
    [Fact]
    public async Task TwoAgentsShareTheRowsWithoutOverlapAndEachStopsWhenItsShareIsUsedUp()
    {
        using var dir = new TempDirectory();
        await using var target = await KestrelTarget.StartAsync();
        await using var dashboard = await Dashboard.StartAsync(published, dir);
        await using var alpha = dashboard.StartAgent(published, dir, "alpha", "alpha-key");
        await using var beta = dashboard.StartAgent(published, dir, "beta", "beta-key");
        foreach (var name in new[] { "alpha", "beta" })
            await dashboard.UntilAgentAsync(name, linked: true, a => a.GetProperty("clockOffsetMs").ValueKind == JsonValueKind.Number);

        const int rows = 41;
        var id = await dashboard.QueueAsync(new
        {
            kind = "http", requests = 1000, concurrency = 4, agents = 2,
            steps = new object[]
            {
                new { name = "signin", method = "POST", url = target.Url("/journey/signin").ToString(), headers = new Dictionary<string, string> { ["Content-Type"] = "application/json" },
                      body = """{"user":"{{user}}","password":"secret"}""", checks = new[] { new { status = 200 } } },
            },
            data = new { name = "users.csv", format = "csv", mode = "once", content = "user\n" + string.Concat(Enumerable.Range(0, rows).Select(i => $"u{i}\n")) },
        });
        var (run, _) = await dashboard.UntilRunAsync(id, Dashboard.Final, 90);
        Assert.True(run.GetProperty("status").GetString() == "completed", run.ToString());

        // Each row reached the target exactly once, though the run asked for 1,000 iterations.
        using var client = new HttpClient();
        var users = (await client.GetFromJsonAsync<string[]>(target.Url("/journey/users")))!;
        Assert.Equal(Enumerable.Range(0, rows).Select(i => $"u{i}").Order(), users.Order());

        // Each agent took its own share (rows i, i + 2, …: 21 and 20) and said when it had used it up.
        var samples = (await dashboard.Client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray()
            .Where(s => s.GetProperty("series").GetString() == "iteration").ToList();
        Assert.Equal([21, 20], samples.GroupBy(s => s.GetProperty("shard").GetInt32()).OrderBy(g => g.Key).Select(g => g.Count()));
        var notes = run.GetProperty("notes").GetProperty("notes").EnumerateArray().Select(n => n.GetString()!).ToList();
        Assert.Contains(notes, n => n.Contains("The data file's 21 rows were used up after 21 iterations", StringComparison.Ordinal));
        Assert.Contains(notes, n => n.Contains("The data file's 20 rows were used up after 20 iterations", StringComparison.Ordinal));
    }
}
