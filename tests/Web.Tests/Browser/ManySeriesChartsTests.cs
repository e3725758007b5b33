using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// Runs of many series in chromium at 1,400 and 390 px: a file-system run's twelve phases and a Table run's eight
/// variants (and those eight compared). Every series has a colour and a marker no other has, every legend stays off
/// the plot and the buttons, the charts over time zoom and come back, and every table fits; p99 is never hidden under p95.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class ManySeriesChartsTests(PublishedOutput published)
{
    static readonly int[] Widths = [1400, 390];

    /// <summary>
    /// Each series dataset of each chart as "chart|colour|marker" (a marker: style, turn, outline or filled). A series is
    /// named as the API names it (its dataset's label, or the label then a percentile); on the compare page every
    /// dataset is an item.
    /// </summary>
    const string LooksScript = """
        names => [...document.querySelectorAll('.chart-box canvas')].map(c => Chart.getChart(c)).filter(c => c).flatMap(c =>
            c.data.datasets.filter(d => !names || names.some(n => d.label === n || d.label.startsWith(n + ' ')))
                .map(d => `${c.canvas.id}|${d.borderColor}|${d.pointStyle} ${d.pointRotation ?? 0} ${d.backgroundColor === '#ffffff' ? 'outline' : 'filled'}`))
        """;

    /// <summary>
    /// Per chart, what overlaps what: its legend (drawn in the canvas, or the list under it) against its plot area, and
    /// every button and select of its box (downloads, range) against the legend. Empty when nothing does.
    /// </summary>
    const string OverlapsScript = """
        () => {
            const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const found = [];
            for (const canvas of document.querySelectorAll('.chart-box canvas')) {
                const chart = Chart.getChart(canvas);
                if (!chart) continue;
                const box = canvas.closest('.chart-box'), c = canvas.getBoundingClientRect(), a = chart.chartArea;
                const plot = { left: c.left + a.left, right: c.left + a.right, top: c.top + a.top, bottom: c.top + a.bottom };
                const list = box.querySelector('.chart-legend');
                let legend = null;
                if (list) legend = list.getBoundingClientRect();
                else if (chart.options.plugins.legend.display && chart.legend.legendItems.length > 0)
                    legend = { left: c.left + chart.legend.left, right: c.left + chart.legend.right, top: c.top + chart.legend.top, bottom: c.top + chart.legend.bottom };
                if (!legend) continue;
                if (meets(legend, plot)) found.push(`${canvas.id}: the legend covers the plot`);
                if (list && list.getBoundingClientRect().top < c.bottom - 0.5) found.push(`${canvas.id}: the legend list starts above the chart's bottom`);
                for (const control of box.querySelectorAll('.chart-export button, .chart-tools button, .chart-tools select'))
                    if (meets(control.getBoundingClientRect(), legend)) found.push(`${canvas.id}: "${control.textContent.trim().slice(0, 20)}" covers the legend`);
            }
            return found;
        }
        """;

    /// <summary>Every wrapped table that is wider than its box, with its width and the box's.</summary>
    const string CutTablesScript = """
        () => [...document.querySelectorAll('.table-wrap')].filter(w => w.offsetParent !== null && w.scrollWidth > w.clientWidth + 1)
            .map(w => (w.querySelector('table')?.id || '(no id)') + ': ' + w.scrollWidth + ' px in ' + w.clientWidth)
        """;

    static async Task<string[]> SeriesNamesAsync(BrowserDashboard dashboard, long run) =>
        (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{run}")).GetProperty("series").EnumerateArray()
            .Select(s => s.GetProperty("name").GetString()!).ToArray();

    /// <summary>On every chart that shows them all, the series' colours differ and so do their markers.</summary>
    static async Task AssertEachSeriesHasItsOwnLookAsync(IPage page, string[]? names, int count, string where)
    {
        var charts = (await page.EvaluateAsync<string[]>(LooksScript, names)).Select(l => l.Split('|'))
            .GroupBy(l => l[0], l => (Colour: l[1], Marker: l[2]))
            .Select(c => (Chart: c.Key, Looks: c.ToList())).Where(c => c.Looks.Count == count).ToList();
        Assert.True(charts.Count >= 3, $"{where}: only {charts.Count} charts show all {count} series");
        foreach (var (chart, looks) in charts)
        {
            Assert.True(looks.Select(l => l.Colour).Distinct().Count() == count, $"{where} {chart}: colours repeat: {string.Join(", ", looks.Select(l => l.Colour))}");
            Assert.True(looks.Select(l => l.Marker).Distinct().Count() == count, $"{where} {chart}: markers repeat: {string.Join(", ", looks.Select(l => l.Marker))}");
        }
    }

    static async Task AssertLegendsClearAsync(IPage page, string where, bool narrow)
    {
        var overlaps = await page.EvaluateAsync<string[]>(OverlapsScript);
        Assert.True(overlaps.Length == 0, $"{where}: {string.Join("; ", overlaps)}");
        if (!narrow) return;
        // On a phone every legend is the list under its chart, none drawn in the canvas; an entry hides its series and shows it again.
        Assert.Equal(0, await page.EvaluateAsync<int>("() => [...document.querySelectorAll('.chart-box canvas')].map(c => Chart.getChart(c)).filter(c => c && c.options.plugins.legend.display).length"));
        const string FirstShown = "() => Chart.getChart(document.querySelector('.chart-legend').closest('.chart-box').querySelector('canvas')).isDatasetVisible(0)";
        await page.Locator(".chart-legend button").First.ClickAsync();
        Assert.False(await page.EvaluateAsync<bool>(FirstShown), $"{where}: a click on the first legend entry left its series shown");
        await page.Locator(".chart-legend button").First.ClickAsync();
        Assert.True(await page.EvaluateAsync<bool>(FirstShown), $"{where}: a second click left the series hidden");
    }

    /// <summary>At 1,400 px no table is cut; at 390 px the page is no wider than the window (a wide table scrolls in its box).</summary>
    static async Task AssertFitsAsync(IPage page, string where, bool narrow)
    {
        if (narrow)
        {
            // When the page is wider than the window, the element whose hiding makes it fit, found from the body down.
            var culprit = await page.EvaluateAsync<string?>("""
                () => {
                    const wide = () => document.documentElement.scrollWidth > window.innerWidth + 1;
                    if (!wide()) return null;
                    const path = [];
                    for (let e = document.body, next; e; e = next) {
                        next = [...e.children].find(c => { const shown = c.style.display; c.style.display = 'none'; const fits = !wide(); c.style.display = shown; return fits; });
                        if (next) path.push(next.tagName.toLowerCase() + (next.id ? '#' + next.id : ''));
                    }
                    return `${document.documentElement.scrollWidth} px, because of ${path.join(' > ')}`;
                }
                """);
            Assert.True(culprit is null, $"{where} is wider than the window: {culprit}");
        }
        else
        {
            var cut = await page.EvaluateAsync<string[]>(CutTablesScript);
            Assert.True(cut.Length == 0, $"{where} cuts {string.Join("; ", cut)}");
        }
    }

    /// <summary>The rate chart: zoom plugin registered, a picked range narrows its x axis, "Show all" gives it all back.</summary>
    static async Task AssertZoomAndRangeAsync(IPage page, string where)
    {
        Assert.True(await page.EvaluateAsync<bool>("() => !!Chart.registry.plugins.get('zoom')"), $"{where}: the zoom plugin is not registered");
        const string Range = "() => { const s = Chart.getChart(document.getElementById('rate-chart')).scales.x; return [s.min, s.max]; }";
        var whole = await page.EvaluateAsync<double[]>(Range);
        var box = page.Locator(".chart-box:has(#rate-chart)");
        var picks = await box.Locator("select.chart-range option:not([hidden])").EvaluateAllAsync<string[]>("options => options.map(o => o.value)");
        Assert.True(picks.Length >= 3, $"{where}: the range select offers {picks.Length} choices");
        await box.Locator("select.chart-range").SelectOptionAsync(picks[1]);
        var part = await page.EvaluateAsync<double[]>(Range);
        Assert.True(part[1] - part[0] < (whole[1] - whole[0]) * 0.9, $"{where}: picking {picks[1]} left the axis at {part[0]}–{part[1]} of {whole[0]}–{whole[1]}");
        Assert.True(await box.Locator("[data-zoom-reset]").IsEnabledAsync());
        await box.Locator("[data-zoom-reset]").ClickAsync();
        Assert.Equal(whole, await page.EvaluateAsync<double[]>(Range));
        Assert.Equal("all", await box.Locator("select.chart-range").InputValueAsync());
        Assert.False(await box.Locator("[data-zoom-reset]").IsEnabledAsync());
    }

    [Fact]
    public async Task TwelvePhasesAndEightVariantsEachHaveTheirOwnColourAndMarkerWithLegendsOffThePlotZoomAndTablesThatFit()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var dashboard = await BrowserDashboard.StartAsync(published, settings: new() { ["ConnectionStrings__tables"] = azurite.ConnectionString });
        await using var browser = await Browser.StartAsync();
        var files = await dashboard.RunAsync(new { kind = "fileSystem", directories = new[] { "temp", "content" }, fileCount = 60, fileBytes = 512, filesPerDirectory = 20, largeFileMiB = 1 });
        var table = await dashboard.RunAsync(new { kind = "table", connection = "tables", requests = 48, concurrency = 2 });
        await dashboard.UntilEndedAsync(files);
        await dashboard.UntilEndedAsync(table);
        var phases = await SeriesNamesAsync(dashboard, files);
        var variants = await SeriesNamesAsync(dashboard, table);
        Assert.Equal(12, phases.Length);
        Assert.Equal(8, variants.Length);

        var pages = new (string Name, string Path, string[]? Series, int Count)[]
        {
            ("files", $"/runs/{files}", phases, 12), ("table", $"/runs/{table}", variants, 8),
            ("compare-8", "/compare?items=" + string.Join(',', variants.Select(v => $"{table}/{v}")), null, 8),
        };
        foreach (var (name, path, series, count) in pages)
        foreach (var width in Widths)
        {
            var where = $"{path} at {width} px";
            var page = await browser.OpenAsync(dashboard.Url + path, width, 1000);
            await page.WaitForLoadStateAsync(LoadState.NetworkIdle);
            await Browser.ScreenshotAsync(page, $"many-series-{name}-{width}");
            await AssertEachSeriesHasItsOwnLookAsync(page, series, count, where);
            await AssertLegendsClearAsync(page, where, narrow: width < 600);
            await AssertFitsAsync(page, where, narrow: width < 600);
            if (name != "compare-8")
            {
                await AssertZoomAndRangeAsync(page, where);
                // Drawn again at another percentile: one legend and one row of tools, as before.
                await page.SelectOptionAsync("#latency-time-percentile", "p99");
                Assert.Equal(count, await page.Locator(".chart-box:has(#latency-time-chart) .chart-legend li").CountAsync());
                Assert.Equal(1, await page.Locator(".chart-box:has(#latency-time-chart) .chart-tools").CountAsync());
                Assert.EndsWith(" p99", await page.EvaluateAsync<string>("() => Chart.getChart(document.getElementById('latency-time-chart')).data.datasets[0].label"));
            }
            await page.CloseAsync();
        }
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task OnAPhoneTheCompareTablesVerdictStaysInViewBesideEachItemWhereverItScrolls()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var id = await dashboard.RunAsync(new
        {
            kind = "http", url = $"{dashboard.Url}/target/delay?ms=1", requests = 80, concurrency = 1,
            variants = new object[] { new { name = "one" }, new { name = "four", url = $"{dashboard.Url}/target/delay?ms=4" }, new { name = "bytes", url = $"{dashboard.Url}/target/bytes?size=20000" } },
        });
        await dashboard.UntilEndedAsync(id);

        var page = await browser.OpenAsync($"{dashboard.Url}/compare?items={id}/one,{id}/four,{id}/bytes", 390, 900);
        await page.WaitForSelectorAsync("#comparison");
        // Scrolled to either end, each row's item (first cell) and verdict (last cell) are inside the table's box.
        foreach (var end in new[] { "0", "wrap.scrollWidth" })
        {
            var hidden = await page.EvaluateAsync<string[]>($$"""
                () => {
                    const wrap = document.querySelector('#comparison').closest('.table-wrap');
                    wrap.scrollLeft = {{end}};
                    const box = wrap.getBoundingClientRect();
                    return [...wrap.querySelectorAll('tr')].flatMap(tr => [tr.cells[0], tr.cells[tr.cells.length - 1]]).filter(c => {
                        const r = c.getBoundingClientRect();
                        return r.width === 0 || r.left < box.left - 1 || r.right > box.right + 1;
                    }).map(c => c.textContent.trim().slice(0, 30));
                }
                """);
            Assert.True(hidden.Length == 0, $"scrolled to {end}: out of view: {string.Join("; ", hidden)}");
            Assert.True(await page.EvaluateAsync<bool>("() => { const wrap = document.querySelector('#comparison').closest('.table-wrap'); return wrap.scrollWidth > wrap.clientWidth; }"),
                "the table fits a phone without scrolling, so this test shows nothing about scrolling");
        }
        await page.EvaluateAsync("() => document.querySelector('#comparison').closest('.table-wrap').scrollLeft = 0");
        await Browser.ScreenshotAsync(page, "compare-verdict-390");
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task InAShortRunP99IsDrawnAboveP95WithADashAndMarkerOfItsOwn()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        // Few requests per window: a window's p95 and p99 are often the same request, the lines on top of each other.
        var id = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=3", requests = 60, concurrency = 1, warmupRequests = 0 });
        await dashboard.UntilEndedAsync(id);

        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{id}");
        await page.WaitForSelectorAsync("#latency-time-chart");
        var lines = await page.EvaluateAsync<JsonElement>("""
            () => {
                const chart = Chart.getChart(document.getElementById('latency-time-chart'));
                // Chart.js draws the sorted datasets last to first: the later in this list, the lower on the canvas.
                const drawn = chart.getSortedVisibleDatasetMetas().map(m => chart.data.datasets[m.index].label).reverse();
                const of = (label) => chart.data.datasets.find(d => d.label === label);
                return { drawn, p95: { style: of('p95').pointStyle, dash: of('p95').borderDash.join(' ') }, p99: { style: of('p99').pointStyle, dash: of('p99').borderDash.join(' ') } };
            }
            """);
        var drawn = lines.GetProperty("drawn").EnumerateArray().Select(l => l.GetString()).ToList();
        Assert.True(drawn.IndexOf("p99") > drawn.IndexOf("p95"), $"drawn in the order {string.Join(", ", drawn)}: p99 is under p95");
        Assert.NotEqual(lines.GetProperty("p95").GetProperty("style").GetString(), lines.GetProperty("p99").GetProperty("style").GetString());
        Assert.NotEqual(lines.GetProperty("p95").GetProperty("dash").GetString(), lines.GetProperty("p99").GetProperty("dash").GetString());
        // The legend keeps the page's order (p50, p95, p99) whatever the drawing order.
        Assert.Equal(["p50", "p95", "p99"], await page.EvaluateAsync<string[]>("() => Chart.getChart(document.getElementById('latency-time-chart')).legend.legendItems.map(i => i.text)"));
        await Browser.ScreenshotAsync(page, "run-short-percentiles");
        Assert.Empty(browser.Errors);
    }
}
