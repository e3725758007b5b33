using System.Net.Http.Json;
using System.Text.Json;

namespace BenchDashboard.Cli.Tests;

/// <summary><c>benchdash compare</c> prints what GET /api/compare decides, item by item and verdict by verdict.</summary>
[Collection(DashboardCollection.Name)]
public sealed class CompareVerbTests(PublishedDashboard published)
{
    DashboardProcess Dashboard => published.Shared;

    async Task<long> CompletedRunAsync(int delayMs)
    {
        using var http = new HttpClient { BaseAddress = Dashboard.Url };
        http.DefaultRequestHeaders.Add("X-Api-Key", PublishedDashboard.Key);
        var created = await http.PostAsJsonAsync("/api/runs", new { kind = "http", url = new Uri(Dashboard.Url, $"/target/delay?ms={delayMs}").ToString(), requests = 30 });
        Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        var deadline = DateTime.UtcNow.AddSeconds(120);
        while ((await http.GetFromJsonAsync<JsonElement>($"/api/runs/{id}?includeStats=false")).GetProperty("status").GetString() is "queued" or "running")
        {
            Assert.True(DateTime.UtcNow < deadline, $"run {id} did not end");
            await Task.Delay(200);
        }
        return id;
    }

    [Fact]
    public async Task TwoRunsArePrintedWithTheVerdictsTheDashboardCalls()
    {
        var fast = await CompletedRunAsync(1);
        var slow = await CompletedRunAsync(20);

        var result = await Client.RunAsync(Client.For(Dashboard), "compare", fast.ToString(), slow.ToString());

        Assert.True(result.ExitCode == 0, result.ToString());
        using var http = new HttpClient { BaseAddress = Dashboard.Url };
        var expected = await http.GetFromJsonAsync<JsonElement>($"/api/compare?items={fast},{slow}");
        var verdicts = expected.GetProperty("verdicts").EnumerateArray().ToList();
        Assert.NotEmpty(verdicts);
        foreach (var verdict in verdicts)
            Assert.Contains($"  {verdict.GetProperty("item").GetString()} {verdict.GetProperty("metric").GetString()}: {verdict.GetProperty("call").GetString()}: {verdict.GetProperty("text").GetString()}", result.Out);
        Assert.Contains($"{fast} (base)", result.Out);
        Assert.Contains(verdicts, v => v.GetProperty("item").GetString() == slow.ToString() && v.GetProperty("metric").GetString() == "median");
    }

    [Fact]
    public async Task WithJsonTheComparisonIsTheApisAnswer()
    {
        var first = await CompletedRunAsync(1);
        var second = await CompletedRunAsync(1);

        var result = await Client.RunAsync(Client.For(Dashboard), "compare", first.ToString(), second.ToString(), "--baseline", second.ToString(), "--json");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(second.ToString(), result.Json.GetProperty("baseline").GetString());
        Assert.Equal(2, result.Json.GetProperty("items").GetArrayLength());
    }

    [Fact]
    public async Task AnUnknownRunIsTheDashboardsRefusalAndExitTwo()
    {
        var result = await Client.RunAsync(Client.For(Dashboard), "compare", "999999", "999998");

        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith("400: ", result.Error);
        Assert.Contains("999999", result.Error);
    }
}
