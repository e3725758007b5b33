using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Browser.Jobs;

/// <summary>The file-storage job: the same file work on several locations, side by side, each against the fastest.</summary>
[Collection(PublishedApps.Collection)]
public sealed class Seed001JobTests(PublishedOutput published)
{
    [Fact]
    public async Task TheLocationsAreSideBySideWithRatiosToTheFastestInTheFirstScreenInThreeSteps()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published, demo: true);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync("about:blank", DemoJob.Width, DemoJob.Height);
        var steps = new UserSteps(page);

        var answer = await DemoJob.RunAsync(steps, dashboard.Url, "Demo: file system on each location");

        steps.AtMost(5);
        await DemoJob.AssertInFirstScreenAsync(page, answer);
        var headers = await answer.Locator("thead th").AllInnerTextsAsync();
        Assert.Equal(["Location", "large-write (download)", "create (extract)", "delete"], headers.Take(4));
        var id = long.Parse(page.Url.Split('/')[^1], CultureInfo.InvariantCulture);
        var seconds = (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("series").EnumerateArray()
            .ToDictionary(s => s.GetProperty("name").GetString()!, s => s.GetProperty("stats").GetProperty("elapsedMs").GetDouble() / 1000);
        foreach (var phase in new[] { "large-write", "create", "delete" })
        {
            var column = Array.IndexOf(headers.ToArray(), headers.First(h => h.StartsWith(phase))) - 1;
            var fastest = Math.Min(seconds[$"temp/{phase}"], seconds[$"content/{phase}"]);
            foreach (var location in new[] { "temp", "content" })
            {
                var cell = (await answer.Locator($"tr[data-location='{location}'] td").AllInnerTextsAsync())[column]
                    .Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
                var expected = seconds[$"{location}/{phase}"];
                Assert.Equal(expected.ToString("N3", CultureInfo.InvariantCulture) + " s", cell[0]);
                if (expected == fastest) Assert.Equal("fastest", cell[1]);
                else Assert.Equal(expected / fastest, double.Parse(cell[1].Split('×')[0], CultureInfo.InvariantCulture), expected / fastest * 0.01);
            }
        }
        await DemoJob.ScreenshotsAsync(page, "job-seed001");
        Assert.Empty(browser.Errors);
    }
}
