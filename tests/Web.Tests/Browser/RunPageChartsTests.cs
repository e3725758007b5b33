using System.Globalization;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// The run page in chromium: variants side by side in every chart (and one alone once picked), charts that
/// tell the truth at their edges (a short run, the partial last window, warm-up, the cold first request) and the
/// live open-model view (target line, late starts, each variant's figures, p95 and p99 alike).
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class RunPageChartsTests(PublishedOutput published)
{
    static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    /// <summary>Each chart's dataset labels (those the legend shows), by canvas id.</summary>
    static async Task<Dictionary<string, string[]>> LegendsAsync(IPage page) =>
        await page.EvaluateAsync<Dictionary<string, string[]>>(@"() => Object.fromEntries(
            ['rate-chart', 'latency-time-chart', 'percentile-chart', 'histogram-chart', 'cdf-chart', 'series-chart']
                .map(id => [id, Chart.getChart(document.getElementById(id)).data.datasets.map(d => d.label).filter(l => l !== '')]))");

    static double Number(string? text) => double.Parse(text!.Trim(), NumberStyles.Number, CultureInfo.InvariantCulture);

    [Fact]
    public async Task EveryChartOfARunOfThreeVariantsHasAllThreeAndAPickedVariantAloneWithALegendOfItsOwn()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var id = await dashboard.RunAsync(new
        {
            kind = "http", url = $"{dashboard.Url}/target/delay?ms=1", requests = 60, concurrency = 1,
            variants = new object[] { new { name = "one" }, new { name = "three", url = $"{dashboard.Url}/target/delay?ms=3" }, new { name = "bytes", url = $"{dashboard.Url}/target/bytes?size=20000" } },
        });
        await dashboard.UntilEndedAsync(id);
        string[] variants = ["one", "three", "bytes"];

        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{id}");
        await page.WaitForSelectorAsync("#variant-picker");
        Assert.Equal(3, await page.Locator(".variant-card").CountAsync());
        var legends = await LegendsAsync(page);
        foreach (var (chart, labels) in legends)
            Assert.All(variants, v => Assert.Contains(labels, l => l.StartsWith(v, StringComparison.Ordinal)));
        Assert.Equal(3, legends["rate-chart"].Length); // no errors: a succeeded line per variant, nothing blended
        await Browser.ScreenshotAsync(page, "run-variants");
        var narrow = await browser.OpenAsync($"{dashboard.Url}/runs/{id}", width: 390);
        await narrow.WaitForSelectorAsync("#variant-picker");
        await Browser.ScreenshotAsync(narrow, "run-variants-390");

        // One variant picked at the top: its own cards, and every chart titled for it shows it alone.
        await page.ClickAsync("#variant-picker a[data-series='three']");
        await page.WaitForSelectorAsync("#card-p50");
        Assert.Contains("(three)", await page.TextContentAsync("#charts h3"));
        foreach (var (chart, labels) in await LegendsAsync(page))
            Assert.All(labels, l => Assert.DoesNotContain(variants.Where(v => v != "three"), v => l.StartsWith(v, StringComparison.Ordinal)));
        Assert.Contains("three", (await LegendsAsync(page))["percentile-chart"]);
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task AHalfSecondRunHasSubSecondWindowsAndItsLastPartialWindowIsARateOverItsRealLength()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var id = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=3", requests = 120, concurrency = 1, warmupRequests = 0 });
        var run = await dashboard.UntilEndedAsync(id);
        var elapsedSeconds = run.GetProperty("stats").GetProperty("elapsedMs").GetDouble() / 1000;
        Assert.InRange(elapsedSeconds, 0.3, 5.9); // short enough for sub-second windows, on a loaded machine too

        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{id}");
        await page.WaitForSelectorAsync("#card-rate");
        var steps = await page.EvaluateAsync<JsonElement>("() => Chart.getChart(document.getElementById('rate-chart')).data.datasets[0].data.map(p => [p.x, p.y])");
        var points = steps.EnumerateArray().Select(p => (X: p[0].GetDouble(), Y: p[1].GetDouble())).ToList();
        Assert.True(points.Count > 4, $"{points.Count} points: more than three windows"); // windows and the step's end

        // The steps end where the run did, and what they add up to is the card's rate: the last window's rate is
        // over the time it really lasted (drawn over a whole window it would read as a collapse).
        Assert.Equal(elapsedSeconds, points[^1].X, 3);
        var area = points.Zip(points.Skip(1), (a, b) => a.Y * (b.X - a.X)).Sum();
        var card = Number(await page.TextContentAsync("#card-rate"));
        Assert.InRange(area / (points[^1].X - points[0].X), card - 0.1, card + 0.1);
        Assert.Contains("ms)", await page.EvaluateAsync<string>("() => Chart.getChart(document.getElementById('rate-chart')).options.scales.x.title.text"));
        await Browser.ScreenshotAsync(page, "run-short");
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task ASlowWarmUpIsOffThePerSampleScaleUntilTickedAndTheColdFirstRequestIsVisibleBesideTheAxis()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        // The cacheable target's first answer takes 300 ms and the rest microseconds: a cold start, in the warm-up.
        var id = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/cacheable?coldMs=300", requests = 100, concurrency = 1, warmupRequests = 5 });
        await dashboard.UntilEndedAsync(id);

        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{id}");
        await page.WaitForSelectorAsync("#show-warmup");
        var scale = await page.EvaluateAsync<JsonElement>("() => { const c = Chart.getChart(document.getElementById('series-chart')); return { yMax: c.scales.y.max, xMin: c.scales.x.min, labels: c.data.datasets.map(d => d.label), first: c.data.datasets.find(d => d.label.startsWith('first request')).data[0] }; }");
        Assert.DoesNotContain(scale.GetProperty("labels").EnumerateArray(), l => l.GetString()!.StartsWith("warm-up", StringComparison.Ordinal));
        Assert.True(scale.GetProperty("yMax").GetDouble() < 100, $"the axis reaches {scale.GetProperty("yMax")} ms: scaled to the warm-up, not the measured requests");
        Assert.True(scale.GetProperty("xMin").GetDouble() < 0, "the first request sits on the axis line");
        Assert.Equal(0, scale.GetProperty("first").GetProperty("x").GetInt32());
        Assert.InRange(scale.GetProperty("first").GetProperty("real").GetDouble(), 300, 10_000); // its real latency, in its label and tooltip
        await Browser.ScreenshotAsync(page, "run-cold-warmup-hidden");

        await page.CheckAsync("#show-warmup");
        var shown = await page.EvaluateAsync<JsonElement>("() => { const c = Chart.getChart(document.getElementById('series-chart')); return { yMax: c.scales.y.max, labels: c.data.datasets.map(d => d.label) }; }");
        Assert.Contains(shown.GetProperty("labels").EnumerateArray(), l => l.GetString() == "warm-up (excluded)");
        Assert.True(shown.GetProperty("yMax").GetDouble() >= 300);
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task TheLiveOpenModelViewHasATargetLineLateStartsEachVariantsFiguresAndP95AndP99Alike()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var id = await dashboard.RunAsync(new
        {
            kind = "http", url = $"{dashboard.Url}/target/delay?ms=2", durationSeconds = 8, concurrency = 4, model = "open", rate = 100,
            variants = new object[] { new { name = "fast" }, new { name = "slow", url = $"{dashboard.Url}/target/delay?ms=8" } },
        });
        var page = await browser.OpenAsync($"{dashboard.Url}/runs/{id}");
        await page.WaitForFunctionAsync("() => document.querySelectorAll('#live-series tbody tr').length === 2 && /^[0-9,]+$/.test(document.getElementById('live-late')?.textContent ?? '')",
            null, new() { Timeout = (float)Patience.TotalMilliseconds });

        Assert.Equal(["fast", "slow"], await page.Locator("#live-series tbody tr").EvaluateAllAsync<string[]>("rows => rows.map(r => r.dataset.series)"));
        var rate = await page.EvaluateAsync<JsonElement>("() => { const c = Chart.getChart(document.getElementById('live-rate-chart')); const t = c.data.datasets.find(d => d.label === 'target rate'); return { target: t ? t.data.map(p => p.y) : [] }; }");
        Assert.NotEmpty(rate.GetProperty("target").EnumerateArray());
        Assert.All(rate.GetProperty("target").EnumerateArray(), y => Assert.Equal(100, y.GetDouble(), 6));
        // p95 and p99 in one card, the same size.
        Assert.NotEqual("–", await page.TextContentAsync("#live-p95"));
        Assert.NotEqual("–", await page.TextContentAsync("#live-p99"));
        Assert.Equal(await page.EvalOnSelectorAsync<string>("#live-p95", "e => getComputedStyle(e).fontSize"), await page.EvalOnSelectorAsync<string>("#live-p99", "e => getComputedStyle(e).fontSize"));
        // The charts keep up with the clock: their axis runs to the elapsed time, past the last whole second.
        await page.WaitForFunctionAsync("() => (Chart.getChart(document.getElementById('live-rate-chart')).data.datasets[0].data.length >= 2)", null, new() { Timeout = (float)Patience.TotalMilliseconds });
        var axis = await page.EvaluateAsync<JsonElement>("() => { const c = Chart.getChart(document.getElementById('live-rate-chart')); const d = c.data.datasets[0].data; return { max: c.options.scales.x.max, last: d[d.length - 1].x }; }");
        Assert.True(axis.GetProperty("max").GetDouble() >= axis.GetProperty("last").GetDouble() + 0.5 - 1e-9);
        await Browser.ScreenshotAsync(page, "run-live-open");
        var narrow = await browser.OpenAsync($"{dashboard.Url}/runs/{id}", width: 390);
        await narrow.WaitForSelectorAsync("#live-series");
        await Browser.ScreenshotAsync(narrow, "run-live-open-390");
        await dashboard.UntilEndedAsync(id);
        Assert.Empty(browser.Errors);
    }
}
