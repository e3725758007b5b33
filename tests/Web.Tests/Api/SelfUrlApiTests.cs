using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>{{self}} URLs through the API: a bad path is a 400 on its field; the dashboard's own runner refuses the run, saying why.</summary>
public class SelfUrlApiTests
{
    [Fact]
    public async Task ASelfRunOnTheDashboardsOwnRunnerFailsSayingItNeedsAnAgentsSiteAndSendsNothing()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "{{self}}/target/delay?ms=1", requests = 10 });
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var run = await DashboardFactory.WaitForEndAsync(client, (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());

        Assert.Equal("failed", run.GetProperty("status").GetString());
        Assert.Contains("{{self}} stands for an agent's own site", run.GetProperty("error").GetString());
        Assert.Equal(0, run.GetProperty("completedRequests").GetInt32());
        Assert.Equal("{{self}}/target/delay?ms=1", run.GetProperty("parameters").GetProperty("url").GetString()); // kept as written
    }

    [Theory]
    [InlineData("{{self}}target")]
    [InlineData("{{self}}//elsewhere.example/x")]
    public async Task AnythingButAPathAfterSelfIsA400OnTheUrlField(string url)
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url, requests = 10 });

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.True(problem.GetProperty("errors").TryGetProperty("url", out _), problem.ToString());
    }
}
