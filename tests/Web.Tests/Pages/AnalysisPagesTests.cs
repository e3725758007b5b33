using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Pages;

public class AnalysisPagesTests
{
    [Fact]
    public async Task ARunsTimeWindowsWarmUpAndEpisodesAreOnItsPageAndInTheApi()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=2").ToString(), durationSeconds = 3 });
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        var count = run.GetProperty("stats").GetProperty("count").GetInt32();

        var analysis = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/analysis?window=1");
        var windows = analysis.GetProperty("windows").EnumerateArray().ToList();
        Assert.Equal(1, analysis.GetProperty("windowSeconds").GetInt32());
        Assert.InRange(windows.Count, 3, 4);
        Assert.Equal(count, windows.Sum(w => w.GetProperty("count").GetInt32())); // every request is in one window
        Assert.All(windows.Where(w => w.GetProperty("count").GetInt32() > 0), w =>
            Assert.True(w.GetProperty("minMs").GetDouble() >= 2 && w.GetProperty("p80Ms").GetDouble() <= w.GetProperty("p95Ms").GetDouble()));
        Assert.Equal(count, analysis.GetProperty("all").GetProperty("count").GetInt32());
        Assert.True(analysis.GetProperty("degradation").GetProperty("steadyMedianMs").GetDouble() >= 2);

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}?window=1"));
        var table = Regex.Match(html, "<table id=\"time-windows\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value;
        Assert.Equal(windows.Count, Regex.Matches(table, "<tr>").Count - 1); // less the header row
        Assert.Contains("<strong>1 s</strong>", html);
        Assert.Matches("<p id=\"warmup\">(Steady|No steady)", html);
        Assert.Contains("<p id=\"episodes-summary\">", html);
    }

    [Fact]
    public async Task BadAnalysisParametersAreExplained()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 50, keyCount = 5 });
        await DashboardFactory.WaitForEndAsync(client, id);

        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync($"/api/runs/{id}/analysis?window=0")).StatusCode);
        var unknown = await client.GetAsync($"/api/runs/{id}/analysis?series=nope");
        Assert.Contains("has no series 'nope'", await unknown.Content.ReadAsStringAsync());
        var phase = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/analysis?series=read-miss");
        Assert.Equal(50, phase.GetProperty("all").GetProperty("count").GetInt32());
        Assert.Contains("Over time: read-same", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}?series=read-same")));
    }
}
