using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Browser.Jobs;

/// <summary>The cache job: writes, reads of one key, reads of different keys and misses side by side.</summary>
[Collection(PublishedApps.Collection)]
public sealed class Seed004JobTests(PublishedOutput published)
{
    [Fact]
    public async Task TheFourCachePhasesAreSideBySideInTheFirstScreenInThreeSteps()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published, demo: true);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync("about:blank", DemoJob.Width, DemoJob.Height);
        var steps = new UserSteps(page);

        var answer = await DemoJob.RunAsync(steps, dashboard.Url, "Demo: cache writes and reads, in-process");

        steps.AtMost(5);
        await DemoJob.AssertInFirstScreenAsync(page, answer);
        Assert.Equal(["Writes", "Reads of one key", "Reads of different keys", "Misses"], await answer.Locator("thead th").AllInnerTextsAsync());
        var id = long.Parse(page.Url.Split('/')[^1], CultureInfo.InvariantCulture);
        var series = (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("series").EnumerateArray().ToList();
        Assert.Equal(["write", "read-same", "read-distinct", "read-miss"], series.Select(s => s.GetProperty("name").GetString()));
        var cells = await answer.Locator("tbody td").AllInnerTextsAsync();
        for (var i = 0; i < 4; i++)
        {
            var stats = series[i].GetProperty("stats");
            // "1,000 in 2.259 ms\nmedian 200 ns": the phase's operations, its total time and its median, as the API has them.
            var lines = cells[i].Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
            Assert.StartsWith($"{stats.GetProperty("count").GetInt32():N0} in ", lines[0]);
            var elapsed = stats.GetProperty("elapsedMs").GetDouble() * 1e6;
            Assert.Equal(elapsed, DemoJob.Nanoseconds(lines[0].Split(" in ")[1]), elapsed * 0.001);
            var median = stats.GetProperty("p50Ms").GetDouble() * 1e6;
            Assert.Equal(median, DemoJob.Nanoseconds(lines[1]["median ".Length..]), Math.Max(1, median * 0.001));
        }
        Assert.Equal("No errors and no rate limit met.", (await answer.Locator("#answer-limits").InnerTextAsync()).Trim());
        await DemoJob.ScreenshotsAsync(page, "job-seed004");
        Assert.Empty(browser.Errors);
    }
}
