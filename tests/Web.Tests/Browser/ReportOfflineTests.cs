using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// Reports as a reader gets them: downloaded from the run page and the compare page, then opened from
/// the file with the network off. Every chart is drawn, no request of any kind leaves the file, no script from a
/// hostile name runs, nothing is cut at 390 px, and the charts are redrawn at the page's width for printing.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class ReportOfflineTests(PublishedOutput published)
{
    const string Hostile = "</script><img src=x onerror=alert(1)>";

    [Fact]
    public async Task SavedReportsOfARunAndAComparisonDrawEveryChartOfflineWithNoRequestAndFitAt390PxAndOnPaper()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        using var saved = new TempDirectory();
        // A saved benchmark with a hostile name and header value, of two variants, run twice: a run and a comparison.
        var created = await dashboard.Api.PostAsJsonAsync("/api/benchmarks", new
        {
            name = "report " + Hostile, kind = "http",
            parameters = new
            {
                url = $"{dashboard.Url}/target/delay?ms=1", requests = 80, warmupRequests = 5,
                headers = new Dictionary<string, string> { ["X-Note"] = Hostile },
                variants = new object[] { new { name = "fast" }, new { name = "slow", url = $"{dashboard.Url}/target/delay?ms=3" } },
            },
        });
        created.EnsureSuccessStatusCode();
        var benchmark = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var ids = new List<long>();
        for (var i = 0; i < 2; i++)
        {
            var run = await dashboard.Api.PostAsync($"/api/benchmarks/{benchmark}/runs", null);
            run.EnsureSuccessStatusCode();
            ids.Add((await run.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());
            await dashboard.UntilEndedAsync(ids[^1]);
        }

        var runReport = await DownloadAsync(browser, $"{dashboard.Url}/runs/{ids[0]}", $"run-{ids[0]}-report.html", saved);
        var compareReport = await DownloadAsync(browser, $"{dashboard.Url}/compare?items={ids[0]},{ids[1]}", $"compare-{ids[0]}-{ids[1]}-report.html", saved);
        await CheckOfflineAsync(browser, runReport, "report-run", charts: 6);
        await CheckOfflineAsync(browser, compareReport, "report-compare", charts: 3);
        Assert.Empty(browser.Errors);
    }

    /// <summary>Clicks the page's "Download report" and saves the file under the name the dashboard gave it.</summary>
    static async Task<string> DownloadAsync(Browser browser, string url, string name, TempDirectory into)
    {
        var page = await browser.OpenAsync(url);
        var download = await page.RunAndWaitForDownloadAsync(() => page.ClickAsync("#download-report"));
        Assert.Equal(name, download.SuggestedFilename);
        var path = into.File(name);
        await download.SaveAsAsync(path);
        await page.CloseAsync();
        return path;
    }

    static async Task CheckOfflineAsync(Browser browser, string path, string name, int charts)
    {
        var file = new Uri(path).AbsoluteUri;
        foreach (var width in new[] { 1400, 390 })
        {
            await using var context = await browser.NewContextAsync(width, 1000);
            await context.SetOfflineAsync(true);
            var problems = new List<string>();
            context.Request += (_, request) => { if (request.Url != file) lock (problems) problems.Add($"request for {request.Url}"); };
            var page = await context.NewPageAsync();
            page.Console += (_, message) => { if (message.Type == "error") lock (problems) problems.Add($"console: {message.Text}"); };
            page.PageError += (_, error) => { lock (problems) problems.Add($"page error: {error}"); };
            page.Dialog += (_, dialog) => { lock (problems) problems.Add($"a script ran: {dialog.Message}"); _ = dialog.DismissAsync(); };
            await page.GotoAsync(file);
            await page.WaitForFunctionAsync("n => document.querySelectorAll('canvas').length === n && [...document.querySelectorAll('canvas')].every(c => Chart.getChart(c))", charts);

            // Every chart is a Chart.js chart with pixels drawn on its canvas.
            var drawn = await Browser.DrawnPixelsAsync(page);
            Assert.Equal(charts, drawn.Count);
            Assert.All(drawn, canvas => Assert.True(canvas.Value > 1000, $"{name} at {width} px: {canvas.Key} has {canvas.Value} drawn pixels"));

            // The page's copy buttons fetch the dashboard's API: a file has nothing they could copy, so none shows. The
            // charts' own buttons (Show all after a zoom, a legend's entries) work in the file and stay.
            Assert.Equal(0, await page.EvaluateAsync<int>("() => [...document.querySelectorAll('button')].filter(b => b.checkVisibility() && !b.closest('.chart-tools, .chart-legend')).length"));

            // Nothing cut: the page never scrolls sideways and every chart lies inside the window (tables scroll in their box).
            var fit = await page.EvaluateAsync<JsonElement>("""
                () => ({
                    page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
                    outside: [...document.querySelectorAll('canvas, .chart-box, h1, h2, p, pre')]
                        .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < -1 || r.right > document.documentElement.clientWidth + 1); })
                        .map(e => e.id || e.tagName),
                })
                """);
            Assert.True(fit.GetProperty("page").GetInt32() <= fit.GetProperty("window").GetInt32(), $"{name} at {width} px is {fit.GetProperty("page")} px wide");
            Assert.Equal(0, fit.GetProperty("outside").GetArrayLength());
            await page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.Combine(Browser.ScreenshotFolder, $"{name}-{width}.png"), FullPage = true });

            if (width == 1400)
            {
                // On paper (A4 less margins is about 718 px): beforeprint has every chart redrawn at the printed width.
                await page.SetViewportSizeAsync(718, 1000);
                await page.EmulateMediaAsync(new PageEmulateMediaOptions { Media = Media.Print });
                var printed = await page.EvaluateAsync<JsonElement>("""
                    () => {
                        let resized = 0;
                        for (const chart of Object.values(Chart.instances)) {
                            const resize = chart.resize.bind(chart);
                            chart.resize = (...args) => { resized++; return resize(...args); };
                        }
                        window.dispatchEvent(new Event('beforeprint'));
                        return {
                            resized,
                            widest: Math.max(...[...document.querySelectorAll('canvas')].map(c => c.getBoundingClientRect().right)),
                            tallest: Math.max(...[...document.querySelectorAll('.chart-box')].map(b => b.getBoundingClientRect().height)),
                            unfitted: [...document.querySelectorAll('canvas')].filter(c => Math.abs(Chart.getChart(c).width - c.parentElement.clientWidth) > 1).map(c => c.id),
                            wideTables: [...document.querySelectorAll('table')].filter(t => t.getBoundingClientRect().right > 719).map(t => (t.id || t.className) + ' ' + Math.round(t.getBoundingClientRect().right)),
                        };
                    }
                    """);
                Assert.Equal(charts, printed.GetProperty("resized").GetInt32());
                Assert.InRange(printed.GetProperty("widest").GetDouble(), 100, 718);
                Assert.InRange(printed.GetProperty("tallest").GetDouble(), 100, 500); // a chart is well within a page, so it is never split
                Assert.Equal(0, printed.GetProperty("unfitted").GetArrayLength());
                Assert.True(printed.GetProperty("wideTables").GetArrayLength() == 0, $"{name} on paper: tables wider than the page: {printed.GetProperty("wideTables")}");
                await Browser.ScreenshotAsync(page, $"{name}-print");
                await page.PdfAsync(new PagePdfOptions { Path = Path.Combine(Browser.ScreenshotFolder, $"{name}.pdf"), Format = "A4" });
            }
            Assert.True(problems.Count == 0, $"{name} at {width} px: {string.Join("; ", problems)}");
        }
    }
}
