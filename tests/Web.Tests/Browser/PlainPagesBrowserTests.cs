using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// In chromium at 1,400 and 390 px: a not-found address is a page in the layout, the forms show only the fields
/// the chosen kind and model accept, a saved schedule is confirmed and listed with its next run, and /agents shows
/// the command to link one. Screenshots of each are kept.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class PlainPagesBrowserTests(PublishedOutput published)
{
    static readonly int[] Widths = [1400, 390];

    /// <summary>Whether the page is wider than the window (a phone would scroll it sideways).</summary>
    static Task<bool> OverflowsAsync(IPage page) => page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth > window.innerWidth");

    [Fact]
    public async Task AnAddressThatFindsNothingIsTheNotFoundPageInTheLayout()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        foreach (var width in Widths)
            foreach (var (path, name) in new[] { ("/runs/99999", "run"), ("/runs/abc", "run-abc"), ("/benchmarks/999/trend", "trend") })
            {
                var page = await browser.OpenAsync(dashboard.Url + path, width);
                Assert.Equal("Not found", await page.Locator("h1#status-page").TextContentAsync());
                Assert.True(await page.Locator("header a.brand").IsVisibleAsync()); // the layout's bar
                Assert.Contains(path, await page.Locator("main").TextContentAsync());
                Assert.True(await page.Locator("#to-runs").IsVisibleAsync());
                Assert.False(await OverflowsAsync(page), $"{path} at {width} px is wider than the window");
                await Browser.ScreenshotAsync(page, $"not-found-{name}-{width}");
                await page.CloseAsync();
            }
        // Only the pages themselves answered 404 (Browser keeps that and chromium's console line about it); no script, style or image failed.
        Assert.All(browser.Errors, e => Assert.Contains("404", e));
        var pages = Widths.SelectMany(_ => new[] { "/runs/99999", "/runs/abc", "/benchmarks/999/trend" }).Select(p => $"about:blank: {dashboard.Url}{p} answered 404");
        Assert.Equal(pages.Order(), browser.Errors.Where(e => e.Contains("answered")).Order());
        Assert.Equal(Widths.Length * 3 * 2, browser.Errors.Count);
    }

    [Fact]
    public async Task TheFormsShowOnlyTheFieldsTheKindAndModelAccept()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        foreach (var width in Widths)
        {
            var files = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=fileSystem", width);
            Assert.Equal(0, await files.Locator("[name='Repeat.SeparateRuns']").CountAsync());
            var hint = await files.Locator("#roots-hint").TextContentAsync();
            Assert.Contains("temp", hint);
            Assert.DoesNotContain("home", hint); // no App Service here: the validator would refuse it
            Assert.False(await OverflowsAsync(files));
            await Browser.ScreenshotAsync(files, $"form-files-{width}");

            // HTTP: the per-variant choices appear with the first filled variant row and go with it.
            var http = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http", width);
            Assert.False(await http.Locator("#Repeat_SeparateRuns").IsVisibleAsync());
            await http.GetByLabel("Variant 2 name").FillAsync("B");
            Assert.True(await http.Locator("#Repeat_SeparateRuns").IsVisibleAsync());
            await Browser.ScreenshotAsync(http, $"form-http-with-variant-{width}");
            await http.GetByLabel("Variant 2 name").FillAsync("");
            Assert.False(await http.Locator("#Repeat_SeparateRuns").IsVisibleAsync());
            Assert.True(await http.Locator("#Repeat_SeparateRuns").IsDisabledAsync());

            // The editor: the latency basis only with the open model; no webhook field to fill without a signing key.
            var editor = await browser.OpenAsync($"{dashboard.Url}/benchmarks/edit?kind=http", width);
            Assert.False(await editor.Locator("#Limits_Latency").IsVisibleAsync());
            await editor.CheckAsync("input[name='Http.Model'][value='open']");
            Assert.True(await editor.Locator("#Limits_Latency").IsVisibleAsync());
            await editor.CheckAsync("input[name='Http.Model'][value='closed']");
            Assert.False(await editor.Locator("#Limits_Latency").IsVisibleAsync());
            Assert.True(await editor.Locator("#WebhookUrls").IsDisabledAsync());
            Assert.True(await editor.Locator("#webhook-key-missing").IsVisibleAsync());
            Assert.False(await OverflowsAsync(editor));
            await Browser.ScreenshotAsync(editor, $"form-editor-closed-{width}");
            foreach (var page in new[] { files, http, editor }) await page.CloseAsync();
        }
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task ASavedScheduleIsConfirmedAndListedAndAgentsShowsTheCommandToLinkOne()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();

        var editor = await browser.OpenAsync($"{dashboard.Url}/benchmarks/edit?kind=http", 1400);
        await editor.FillAsync("#Name", "nightly");
        await editor.FillAsync("#CronSchedule", "30 2 * * 1-5");
        await editor.FillAsync("#TimeZone", "Europe/Berlin");
        await editor.FillAsync("input[name='Http.Url']", $"{dashboard.Url}/target/delay?ms=1");
        await editor.ClickAsync("button[type=submit]:has-text('Save')");
        await editor.WaitForURLAsync($"{dashboard.Url}/benchmarks");
        var saved = await editor.Locator("#benchmark-saved").TextContentAsync();
        Assert.StartsWith("Saved 'nightly', scheduled every weekday (Monday to Friday) at 02:30 (Europe/Berlin); next run 20", saved);
        Assert.Contains(" 02:30 Europe/Berlin (", saved);

        foreach (var width in Widths)
        {
            var list = await browser.OpenAsync($"{dashboard.Url}/benchmarks", width);
            Assert.Contains("02:30 Europe/Berlin", await list.Locator("td.schedule-next").TextContentAsync());
            Assert.Equal("none yet", await list.Locator("td.schedule-last").TextContentAsync());
            await Browser.ScreenshotAsync(list, $"benchmarks-schedule-{width}");

            var agents = await browser.OpenAsync($"{dashboard.Url}/agents", width);
            var command = await agents.Locator("#agent-command").TextContentAsync();
            Assert.Contains($"Runner__Coordinator={dashboard.Url} ", command);
            Assert.Contains("dotnet run --project src/Runner -c Release", command);
            Assert.True(await agents.Locator("#agent-command").IsVisibleAsync());
            Assert.False(await OverflowsAsync(agents), $"/agents at {width} px is wider than the window");
            await Browser.ScreenshotAsync(agents, $"agents-none-linked-{width}");
            await list.CloseAsync();
            await agents.CloseAsync();
        }
        Assert.Empty(browser.Errors);
    }
    [Fact]
    public async Task RunPagesSayTheirTimesAndLeaveTheMethodsToTheGlossary()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var id = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=1", requests = 60 });
        await dashboard.UntilEndedAsync(id);

        foreach (var width in Widths)
        {
            var list = await browser.OpenAsync(dashboard.Url + "/", width);
            Assert.Equal("e.g. machineName", await list.Locator("input[name='env']").GetAttributeAsync("placeholder"));
            Assert.Equal(1, await list.Locator("#runs th", new() { HasTextString = "Wall time" }).CountAsync());
            await Browser.ScreenshotAsync(list, $"runs-list-words-{width}");

            var run = await browser.OpenAsync($"{dashboard.Url}/runs/{id}", width);
            Assert.True(await run.Locator("#measured-time").IsVisibleAsync());
            Assert.True(await run.Locator("#wall-time").IsVisibleAsync());
            var body = await run.Locator("main").InnerTextAsync();
            foreach (var method in new[] { "MAD", "log₁₀", "HdrHistogram", "seed 0", "Seed 0" }) Assert.DoesNotContain(method, body);
            await Browser.ScreenshotAsync(run, $"run-page-words-{width}");

            await run.ClickAsync("a[href='/glossary#percentile-plot']");
            await run.WaitForURLAsync($"{dashboard.Url}/glossary#percentile-plot");
            Assert.True(await run.Locator("dt#percentile-plot").IsVisibleAsync());
            Assert.Contains("−log₁₀(1 − p)", await run.Locator("dt#percentile-plot + dd").TextContentAsync());
            Assert.False(await OverflowsAsync(run), $"the glossary at {width} px is wider than the window");
            await Browser.ScreenshotAsync(run, $"glossary-percentile-plot-{width}");
            await list.CloseAsync();
            await run.CloseAsync();
        }
        Assert.Empty(browser.Errors);
    }
}
