using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// In chromium at 1,400 and 390 px: a limit added after a run keeps the run's recorded verdict and says beside it what
/// today's limits would say; a run page opened while the run was queued stops saying "queued" once its requests count.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class LaterLimitsBrowserTests(PublishedOutput published)
{
    static readonly object Parameters = new { backend = "memory", requests = 50, keyCount = 10 };

    [Fact]
    public async Task ARunThatPassedBeforeALimitWasAddedStaysGreenWithTodaysVerdictBesideItAtBothWidths()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var created = await dashboard.Api.PostAsJsonAsync("/api/benchmarks", new { name = "limits added later", kind = "cache", parameters = Parameters });
        created.EnsureSuccessStatusCode();
        var benchmark = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var earlier = await RunAsync(dashboard, benchmark);
        // A median no in-process operation can meet.
        (await dashboard.Api.PutAsJsonAsync($"/api/benchmarks/{benchmark}",
            new { name = "limits added later", kind = "cache", parameters = Parameters, thresholds = new { maxMedianMs = 0.000001 } })).EnsureSuccessStatusCode();
        var later = await RunAsync(dashboard, benchmark);

        foreach (var width in new[] { 1400, 390 })
        {
            var list = await browser.OpenAsync(dashboard.Url + "/", width);
            var row = list.Locator($"tr[data-run='{earlier}']");
            Assert.Equal("row-good", await row.GetAttributeAsync("class"));
            var note = row.Locator(".flag-note");
            Assert.Equal("today's limits would fail", await note.TextContentAsync());
            Assert.StartsWith("Today's limits would fail this run (median ", await note.GetAttributeAsync("title"));
            Assert.Equal(0, await row.Locator(".flag-fail").CountAsync());
            Assert.Equal(1, await list.Locator($"tr[data-run='{later}'] .flag-fail").CountAsync());
            await note.ScrollIntoViewIfNeededAsync();
            await AssertFitsAsync(list, width);
            await Browser.ScreenshotAsync(list, $"limits-later-runs-{width}");

            var run = await browser.OpenAsync($"{dashboard.Url}/runs/{earlier}", width);
            Assert.Contains("status-outcome-good", await run.Locator("#run-status").GetAttributeAsync("class"));
            Assert.True(await run.Locator("#limits-today").IsVisibleAsync());
            Assert.Matches(@"^Limits: – \(none set when it ended\)\.\s+Today's limits would fail this run \(median [0-9.]+ ms, limit 0\.000001 ms\)\.",
                (await run.Locator("#history").InnerTextAsync()).Trim());
            await run.Locator("#history").ScrollIntoViewIfNeededAsync();
            await AssertFitsAsync(run, width);
            await Browser.ScreenshotAsync(run, $"limits-later-run-{width}");
            await run.Locator("#history").ScreenshotAsync(new() { Path = Path.Combine(Browser.ScreenshotFolder, $"limits-later-run-verdict-{width}.png") });

            var trend = await browser.OpenAsync($"{dashboard.Url}/benchmarks/{benchmark}/trend", width);
            var remark = trend.Locator($"tr[data-run='{earlier}'] .limits-today");
            Assert.StartsWith("Today's limits would fail this run (median ", await remark.TextContentAsync());
            Assert.StartsWith("✗ failed: median ", (await trend.Locator($"tr[data-run='{later}'] td").Last.InnerTextAsync()).Trim());
            await remark.ScrollIntoViewIfNeededAsync();
            await AssertFitsAsync(trend, width);
            await Browser.ScreenshotAsync(trend, $"limits-later-trend-{width}");
        }
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task ARunPageOpenedWhileTheRunWasQueuedStopsSayingQueuedOnceItsRequestsAreCounted()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        // One run at a time: the first (about 5 s) keeps the second in the queue while its pages open.
        var first = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=200", requests = 25, concurrency = 1 });
        var second = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=50", requests = 200, concurrency = 1 });

        var pages = new List<(IPage Page, int Width)>();
        foreach (var width in new[] { 1400, 390 })
        {
            var page = await browser.OpenAsync($"{dashboard.Url}/runs/{second}", width);
            Assert.Equal("queued", await page.Locator("#run-status").TextContentAsync());
            pages.Add((page, width));
        }
        Assert.Equal("queued", (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{second}?includeStats=false")).GetProperty("status").GetString());

        foreach (var (page, width) in pages)
        {
            // The count and the badge are written in one step of the page's poll: once one shows, so does the other.
            await page.WaitForFunctionAsync("() => Number((document.getElementById('progress')?.textContent ?? '').replace(/\\D/g, '')) > 0",
                null, new PageWaitForFunctionOptions { Timeout = 60_000 });
            Assert.Equal("running", await page.Locator("#run-status").TextContentAsync());
            Assert.DoesNotContain("status-queued", await page.Locator("#run-status").GetAttributeAsync("class"));
            await Browser.ScreenshotAsync(page, $"live-badge-running-{width}");
        }
        Assert.Equal("completed", (await dashboard.UntilEndedAsync(first)).GetProperty("status").GetString());
        Assert.Empty(browser.Errors);
    }

    static async Task<long> RunAsync(BrowserDashboard dashboard, int benchmark)
    {
        var queued = await dashboard.Api.PostAsync($"/api/benchmarks/{benchmark}/runs", null);
        queued.EnsureSuccessStatusCode();
        var id = (await queued.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        Assert.Equal("completed", (await dashboard.UntilEndedAsync(id)).GetProperty("status").GetString());
        return id;
    }

    /// <summary>The page is no wider than the window: a wide table scrolls inside its box.</summary>
    static async Task AssertFitsAsync(IPage page, int width) =>
        Assert.True(await page.EvaluateAsync<int>("() => document.documentElement.scrollWidth - window.innerWidth") <= 1, $"{page.Url} at {width} px is wider than the window");
}
