using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Browser.Jobs;

/// <summary>The cold-and-warm job: how much faster the warm rest is than the cold first request, read at the top of the run.</summary>
[Collection(PublishedApps.Collection)]
public sealed class Seed002JobTests(PublishedOutput published)
{
    [Fact]
    public async Task TheColdFirstRequestAgainstTheWarmRestIsOneRatioInTheFirstScreenInThreeSteps()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published, demo: true);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync("about:blank", DemoJob.Width, DemoJob.Height);
        var steps = new UserSteps(page);

        var answer = await DemoJob.RunAsync(steps, dashboard.Url, "Demo: cold first request, then served from cache");

        steps.AtMost(5);
        await DemoJob.AssertInFirstScreenAsync(page, answer);
        // The figures against the samples themselves: the first request, and the nearest-rank median of the rest.
        var id = long.Parse(page.Url.Split('/')[^1], CultureInfo.InvariantCulture);
        var samples = (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples")).EnumerateArray().ToList();
        var first = samples.MinBy(s => s.GetProperty("index").GetInt32());
        var rest = samples.Where(s => s.GetProperty("index").GetInt32() != first.GetProperty("index").GetInt32())
            .Select(s => s.GetProperty("latencyMs").GetDouble() * 1e6).Order().ToList();
        var median = rest[(int)Math.Ceiling(rest.Count * 0.5) - 1];
        var firstNs = first.GetProperty("latencyMs").GetDouble() * 1e6;

        Assert.Equal(firstNs, DemoJob.Nanoseconds(await answer.Locator("[data-figure=first]").InnerTextAsync()), firstNs * 0.001);
        Assert.Equal(median, DemoJob.Nanoseconds(await answer.Locator("[data-figure=warm]").InnerTextAsync()), median * 0.001);
        Assert.Contains($"the other {rest.Count}:", await answer.InnerTextAsync());
        var ratio = await answer.Locator("[data-figure=ratio]").InnerTextAsync();
        Assert.EndsWith("× faster warm", ratio);
        Assert.Equal(firstNs / median, double.Parse(ratio.Split('×')[0], NumberStyles.Number, CultureInfo.InvariantCulture), firstNs / median * 0.01);
        Assert.True(firstNs / median > 10, $"the demo's cold request (400 ms) should be far slower than the cached rest: {ratio}");
        await DemoJob.ScreenshotsAsync(page, "job-seed002");
        Assert.Empty(browser.Errors);
    }
}
