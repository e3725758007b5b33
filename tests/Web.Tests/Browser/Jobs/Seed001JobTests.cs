using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Browser.Jobs;

/// <summary>The file-storage job: the same file work on several locations, each phase against the same phase at the first location.</summary>
[Collection(PublishedApps.Collection)]
public sealed class Seed001JobTests(PublishedOutput published)
{
    [Fact]
    public async Task TheLocationsAreSideBySidePerPhaseColouredOnlyByTheVerdictInTheFirstScreenInThreeSteps()
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
        var figures = (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("figures").EnumerateArray()
            .ToDictionary(f => f.GetProperty("location").GetString() + "/" + f.GetProperty("phase").GetString());
        Assert.Equal(12, figures.Count);
        foreach (var (series, f) in figures)
        {
            var cell = answer.Locator($"td[data-series='{series}']");
            var lines = (await cell.InnerTextAsync()).Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
            var median = f.GetProperty("medianNs").GetDouble();
            Assert.Equal(median, DemoJob.Nanoseconds(lines[0]), Math.Max(1, median * 0.001));
            var call = f.GetProperty("medianCall").ValueKind == JsonValueKind.Null ? null : f.GetProperty("medianCall").GetString();
            var css = await cell.GetAttributeAsync("class") ?? "";
            if (series.StartsWith("temp/")) Assert.Equal("baseline", lines[1]);
            else
            {
                Assert.Equal("temp/" + series.Split('/')[1], await cell.GetAttributeAsync("data-against")); // the same phase, never another
                if (call is "faster" or "slower")
                {
                    var ratio = f.GetProperty("ratio").GetDouble();
                    Assert.EndsWith($"× {call}", lines[1]);
                    Assert.Equal(ratio >= 1 ? ratio : 1 / ratio, double.Parse(lines[1].Split('×')[0], CultureInfo.InvariantCulture), 0.01 * Math.Max(ratio, 1 / ratio));
                }
                else Assert.Equal(call switch { "noClearDifference" => "no clear difference", "equivalent" => "equivalent (within ±2 %)", _ => "not judged" },
                    call is null ? lines[1].Split(", ")[^1] : lines[1]); // a ratio without a verdict is never read as a finding
            }
            Assert.Equal(call == "slower", css.Contains("cell-worse"));
            Assert.Equal(call == "faster", css.Contains("cell-better"));
        }
        await DemoJob.ScreenshotsAsync(page, "job-seed001");
        Assert.Empty(browser.Errors);
    }
}
