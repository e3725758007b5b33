using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// The runs list keeps itself current, and tables on every page: at 1,400 px none is cut (none scrolls); at 390 px a wide one scrolls
/// inside its box, never the page, and its first column stays in view when scrolled to the far end.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class TableFitTests(PublishedOutput published)
{
    [Fact]
    public async Task EveryTableFitsAt1400PxAndKeepsItsFirstColumnInViewWhenScrolledAt390Px()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        // A run of two variants (its run page has the variant tables), and a saved benchmark run twice (its trend).
        var variants = await dashboard.RunAsync(new
        {
            kind = "http", url = $"{dashboard.Url}/target/delay?ms=2", requests = 120, warmupRequests = 10,
            variants = new object[] { new { name = "fast" }, new { name = "slow", url = $"{dashboard.Url}/target/delay?ms=6" } },
        });
        await dashboard.UntilEndedAsync(variants);
        var created = await dashboard.Api.PostAsJsonAsync("/api/benchmarks", new
        {
            name = "tables fit", kind = "http", parameters = new { url = $"{dashboard.Url}/target/delay?ms=2", requests = 60 },
        });
        created.EnsureSuccessStatusCode();
        var benchmark = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        for (var i = 0; i < 2; i++)
        {
            var run = await dashboard.Api.PostAsync($"/api/benchmarks/{benchmark}/runs", null);
            run.EnsureSuccessStatusCode();
            await dashboard.UntilEndedAsync((await run.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());
        }

        var pages = new[]
        {
            ("runs", "/"), ("run", $"/runs/{variants}"), ("compare", $"/compare?items={variants}/fast,{variants}/slow"),
            ("trend", $"/benchmarks/{benchmark}/trend"), ("benchmarks", "/benchmarks"), ("agents", "/agents"),
        };
        foreach (var (name, path) in pages)
        {
            var wide = await browser.OpenAsync(dashboard.Url + path, 1400, 1000);
            await wide.WaitForLoadStateAsync(LoadState.NetworkIdle);
            var cut = await wide.EvaluateAsync<string[]>("""
                () => [...document.querySelectorAll('table')].filter(t => {
                    const box = t.closest('.table-wrap') ?? t;
                    return box.scrollWidth > box.clientWidth + 1;
                }).map(t => (t.id || '(no id)') + ': ' + (t.closest('.table-wrap') ?? t).scrollWidth + ' px in ' + (t.closest('.table-wrap') ?? t).clientWidth)
                """);
            Assert.True(cut.Length == 0, $"{path} at 1,400 px cuts {string.Join("; ", cut)}");
            Assert.Equal(0, await wide.EvaluateAsync<int>("() => document.querySelectorAll('main table:not(.table-wrap > table)').length"));
            await Browser.ScreenshotAsync(wide, $"tables-{name}-1400");
            await wide.CloseAsync();

            var narrow = await browser.OpenAsync(dashboard.Url + path, 390, 900);
            await narrow.WaitForLoadStateAsync(LoadState.NetworkIdle);
            Assert.True(await narrow.EvaluateAsync<int>("() => document.documentElement.scrollWidth - window.innerWidth") <= 1, $"{path} at 390 px is wider than the window");
            // Every wrapped table scrolled to its far end: each row's first cell is still inside the box, at its left edge.
            var hidden = await narrow.EvaluateAsync<string[]>("""
                () => [...document.querySelectorAll('.table-wrap')].filter(wrap => wrap.offsetParent !== null).flatMap(wrap => {
                    wrap.scrollLeft = wrap.scrollWidth;
                    const box = wrap.getBoundingClientRect();
                    return [...wrap.querySelectorAll('tr')].map(tr => tr.cells[0]).filter(c => c).filter(c => {
                        const r = c.getBoundingClientRect();
                        return r.left < box.left - 1 || r.left > box.left + 2 || r.width === 0;
                    }).map(c => (wrap.querySelector('table')?.id || '(no id)') + ': "' + c.textContent.trim().slice(0, 30) + '"');
                })
                """);
            Assert.True(hidden.Length == 0, $"{path} at 390 px, scrolled right, loses first cells: {string.Join("; ", hidden.Take(5))}");
            await narrow.EvaluateAsync("() => document.querySelectorAll('.table-wrap').forEach(w => w.scrollLeft = 0)");
            await Browser.ScreenshotAsync(narrow, $"tables-{name}-390");
            await narrow.CloseAsync();
        }
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task TheRunsListShowsANewRunAndItsEndWithoutAReload()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync($"{dashboard.Url}/");
        Assert.Contains("No runs yet", await page.ContentAsync());
        await page.EvaluateAsync("() => { window.__sameDocument = true; }");

        var id = await dashboard.RunAsync(new { kind = "cache", requests = 200, keyCount = 20 });
        await dashboard.UntilEndedAsync(id);
        await page.WaitForFunctionAsync($"() => document.querySelector('tr[data-run=\"{id}\"]')?.dataset.status === 'completed'",
            null, new() { Timeout = 30_000 });
        Assert.True(await page.EvaluateAsync<bool>("() => window.__sameDocument === true"), "the page was reloaded");
        Assert.Empty(browser.Errors);
    }
}
