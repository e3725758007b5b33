using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// The dashboard as a user sees it: the published app started on a free loopback port (Development, so the
/// reader is the administrator of a local dashboard), its pages in Debian's chromium. Targets are the app's own
/// /target/ endpoints.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class BrowserTests(PublishedOutput published)
{
    static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AFormRunIsWatchedLiveThenBecomesItsFinishedPageWithoutAReloadAndAnotherIsCancelledFromItsPage()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();

        var page = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http");
        await page.FillAsync("input[name='Http.Url']", $"{dashboard.Url}/target/delay?ms=3");
        await page.CheckAsync("input[name='Http.Mode'][value='duration']");
        await page.FillAsync("input[name='Http.DurationSeconds']", "6");
        await page.FillAsync("input[name='Http.Concurrency']", "2");
        await page.GetByRole(AriaRole.Button, new() { Name = "Queue run" }).ClickAsync();
        await page.WaitForURLAsync(new Regex(@"/runs/\d+$"));
        await page.EvaluateAsync("() => { window.__sameDocument = true; }");

        // The live figures move while it runs: at least two different counts after the first.
        var seen = new List<string>();
        var deadline = DateTime.UtcNow + Patience;
        while (seen.Count < 3 && DateTime.UtcNow < deadline && await page.QuerySelectorAsync("#live-measured") is { } measured)
        {
            var text = await measured.TextContentAsync();
            if (text is not null and not "–" && (seen.Count == 0 || seen[^1] != text)) seen.Add(text);
            if (seen.Count == 2) await Browser.ScreenshotAsync(page, "run-live");
            await Task.Delay(250);
        }
        Assert.True(seen.Count >= 3, $"live counts seen: {string.Join(", ", seen)}");

        // When it ends the finished page takes the live one's place, in the same document (no reload).
        await page.WaitForFunctionAsync("() => document.getElementById('run-status')?.textContent === 'completed' && document.getElementById('cards') !== null",
            null, new() { Timeout = (float)Patience.TotalMilliseconds });
        Assert.True(await page.EvaluateAsync<bool>("() => window.__sameDocument === true"), "the page was reloaded");
        await page.WaitForSelectorAsync("#rate-chart");
        await Browser.ScreenshotAsync(page, "run-finished");

        // A second run, cancelled from its page.
        var second = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=3", durationSeconds = 60 });
        await page.GotoAsync($"{dashboard.Url}/runs/{second}");
        await page.WaitForSelectorAsync("#live-measured");
        await page.ClickAsync("#cancel-run");
        var cancelled = await dashboard.UntilEndedAsync(second);
        Assert.Equal("cancelled", cancelled.GetProperty("status").GetString());
        await page.GotoAsync($"{dashboard.Url}/runs/{second}");
        Assert.Equal("cancelled", await page.TextContentAsync("#run-status"));
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task ARunAgainstARefusedPortIsRedWithItsReasonOnItsPageAndInTheRunsList()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var id = await dashboard.RunAsync(new { kind = "http", url = "http://127.0.0.1:1/", requests = 50 });
        await dashboard.UntilEndedAsync(id);

        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{id}");
        Assert.Equal("outcome outcome-bad", await page.GetAttributeAsync("#outcome", "class"));
        Assert.Equal("errors: 100 % connection refused", (await page.TextContentAsync("#outcome"))?.Trim());
        Assert.Contains("status-outcome-bad", await page.GetAttributeAsync("#run-status", "class"));
        Assert.Equal("0.0", await page.TextContentAsync("#card-rate")); // nothing succeeded, whatever was attempted
        await Browser.ScreenshotAsync(page, "run-refused");

        var list = await browser.OpenAsync($"{dashboard.Url}/");
        var row = list.Locator($"tr[data-run='{id}']");
        Assert.Equal("row-bad", await row.GetAttributeAsync("class"));
        Assert.Contains("100 % connection refused", await row.TextContentAsync());
        Assert.NotEqual("rgba(0, 0, 0, 0)", await row.Locator("td").First.EvaluateAsync<string>("e => getComputedStyle(e).backgroundColor"));
        await Browser.ScreenshotAsync(list, "runs-list");
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task EveryChartOnTheRunCompareAndTrendPagesIsDrawnAtBothWidthsWithoutAConsoleError()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var fast = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=2", requests = 400, concurrency = 2, warmupRequests = 20 });
        await dashboard.UntilEndedAsync(fast);

        // Saved as a benchmark from its page, run from the benchmarks page, then run again from that run's page
        // (its parameters are the benchmark's, so it joins its history): a trend of two runs.
        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{fast}");
        await page.FillAsync("input[name='name']", "browser test");
        await page.ClickAsync("#save-benchmark");
        await page.WaitForURLAsync(new Regex(@"/benchmarks/edit/\d+$"));
        var benchmarkId = Regex.Match(page.Url, @"/benchmarks/edit/(\d+)$").Groups[1].Value;
        await page.GotoAsync($"{dashboard.Url}/benchmarks");
        await page.GetByRole(AriaRole.Button, new() { Name = "Run now" }).ClickAsync();
        await page.WaitForURLAsync(new Regex(@"/runs/\d+$"));
        var again = long.Parse(Regex.Match(page.Url, @"/runs/(\d+)$").Groups[1].Value);
        await dashboard.UntilEndedAsync(again);
        await page.GotoAsync($"{dashboard.Url}/runs/{again}");
        await page.ClickAsync("#run-again");
        await page.WaitForURLAsync(new Regex(@"/runs/\d+$"));
        var third = await dashboard.UntilEndedAsync(long.Parse(Regex.Match(page.Url, @"/runs/(\d+)$").Groups[1].Value));
        Assert.Equal(int.Parse(benchmarkId), third.GetProperty("benchmarkId").GetInt32());

        foreach (var (name, path) in new[] { ("run", $"/runs/{fast}"), ("compare", $"/compare?items={fast},{again}"), ("trend", $"/benchmarks/{benchmarkId}/trend") })
            foreach (var width in new[] { 1400, 390 })
            {
                var view = await browser.OpenAsync(dashboard.Url + path, width, 900);
                await view.WaitForLoadStateAsync(LoadState.NetworkIdle);
                var pixels = await Browser.DrawnPixelsAsync(view);
                Assert.NotEmpty(pixels);
                Assert.All(pixels, canvas => Assert.True(canvas.Value > 500, $"{path} at {width} px: canvas #{canvas.Key} drew {canvas.Value} pixels"));
                // Nothing wider than the window: tables scroll inside their box, charts shrink.
                var overflow = await view.EvaluateAsync<int>("() => document.documentElement.scrollWidth - window.innerWidth");
                Assert.True(overflow <= 1, $"{path} at {width} px is {overflow} px wider than the window");
                await Browser.ScreenshotAsync(view, $"{name}-{width}");
                await view.CloseAsync();
            }
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task TheCompareVerdictSaysTimesSlowerOrFasterInItsColour()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        // Two variants interleaved in one run: the verdict pairs their turns.
        var run = await dashboard.RunAsync(new
        {
            kind = "http", url = $"{dashboard.Url}/target/delay?ms=2", requests = 150, warmupRequests = 10,
            variants = new object[] { new { name = "fast" }, new { name = "slow", url = $"{dashboard.Url}/target/delay?ms=8" } },
        });
        await dashboard.UntilEndedAsync(run);
        var (baseline, slower) = ($"{run}/fast", $"{run}/slow");

        var page = await browser.OpenAsync($"{dashboard.Url}/compare?items={baseline},{slower}");
        var median = page.Locator($"#verdicts tr[data-item='{slower}'] td.verdict").First;
        Assert.Matches(@"^\d+\.\d+× slower \(95 % CI \d+\.\d+× to \d+\.\d+×\)$", (await median.TextContentAsync())!.Trim());
        Assert.Contains("worse", await median.GetAttributeAsync("class"));
        Assert.Equal("rgb(192, 52, 43)", await median.EvaluateAsync<string>("e => getComputedStyle(e).color")); // the red of var(--bad)
        Assert.Contains("× slower", await page.Locator($"#comparison tr[data-item='{slower}'] td[data-metric='Median'] .ratio").TextContentAsync());
        Assert.Contains("ran interleaved in one run", await page.Locator("#verdict-noise").TextContentAsync());
        await Browser.ScreenshotAsync(page, "compare");
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task NoPageCanBeFramedByAnotherSiteAndEveryPageWorksUnderTheContentPolicy()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var run = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=1", requests = 200, concurrency = 2 });
        await dashboard.UntilEndedAsync(run);

        // Every page under the policy: a refused script, style or connection would be a console error.
        foreach (var path in new[] { "/", "/benchmarks", "/benchmarks/edit?kind=cache", "/runs/new", "/runs/new?kind=cache", "/runs/new?kind=fileSystem",
            "/runs/new?kind=table", $"/runs/{run}", $"/compare?items={run},{run}", "/agents", "/login", "/api-docs/index.html" })
        {
            var view = await browser.OpenAsync(dashboard.Url + path);
            await view.WaitForLoadStateAsync(LoadState.NetworkIdle);
            await view.CloseAsync();
        }
        var details = await browser.OpenAsync($"{dashboard.Url}/runs/{run}");
        await details.WaitForLoadStateAsync(LoadState.NetworkIdle);
        Assert.All(await Browser.DrawnPixelsAsync(details), canvas => Assert.True(canvas.Value > 500, $"canvas #{canvas.Key} drew {canvas.Value} pixels"));
        // The variant button's script is a file now: it still shows the next row.
        var form = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http");
        var hidden = await form.Locator("#http-variants .variant-row[hidden]").CountAsync();
        await form.ClickAsync("#add-variant");
        Assert.Equal(hidden - 1, await form.Locator("#http-variants .variant-row[hidden]").CountAsync());
        Assert.Empty(browser.Errors);

        // Another site frames the run page (its Delete and Run again buttons) beside a page that allows framing:
        // chromium shows the second and refuses the first.
        var framer = await browser.OpenAsync("about:blank");
        await framer.SetContentAsync($"""
            <iframe name="victim" src="{dashboard.Url}/runs/{run}" width="800" height="400"></iframe>
            <iframe name="control" src="data:text/html,<button id=delete-run>framed</button>" width="200" height="100"></iframe>
            """);
        async Task<bool> ShowsDeleteButtonAsync(string name)
        {
            var frame = framer.Frames.Single(f => f.Name == name);
            try
            {
                return await frame.EvaluateAsync<bool>("() => document.querySelector('#delete-run') !== null");
            }
            catch (PlaywrightException)
            {
                return false; // an error page chromium put in its place
            }
        }
        Assert.True(await ShowsDeleteButtonAsync("control"), "the control frame is not readable: the check below would prove nothing");
        Assert.False(await ShowsDeleteButtonAsync("victim"), $"the framed run page was shown ({framer.Frames.Single(f => f.Name == "victim").Url})");
        await Browser.ScreenshotAsync(framer, "framing-refused");
    }
}
