using System.Buffers.Binary;
using System.Net.Http.Json;
using System.Text.Json;
using System.Xml.Linq;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// The export buttons in chromium: the copy buttons put on the clipboard what the API answers (and, without a clipboard, leave
/// it selected for Ctrl+C), and every chart on the run, compare and trend pages downloads as a 1200 × 600 PNG and as
/// an SVG holding its title, axis titles and legend.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class ExportButtonsTests(PublishedOutput published)
{
    static readonly string[] Clipboard = ["clipboard-read", "clipboard-write"];

    static async Task<(long Fast, long Slow)> TwoRunsAsync(BrowserDashboard dashboard)
    {
        var fast = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=1", requests = 60, concurrency = 1 });
        var slow = await dashboard.RunAsync(new { kind = "http", url = $"{dashboard.Url}/target/delay?ms=4", requests = 60, concurrency = 1 });
        await dashboard.UntilEndedAsync(fast);
        await dashboard.UntilEndedAsync(slow);
        return (fast, slow);
    }

    /// <summary>Clicks a copy button, waits for its note to say it copied, and answers the clipboard and what the API answers at the button's address.</summary>
    static async Task<(string Clipboard, string Api)> CopyAsync(IPage page, BrowserDashboard dashboard, string box, string format)
    {
        var button = page.Locator($"#{box} button[data-format='{format}']");
        var url = await button.GetAttributeAsync("data-url");
        await button.ClickAsync();
        await page.WaitForFunctionAsync("box => document.querySelector(`#${box} .copy-note`).textContent.startsWith('Copied')", box,
            new PageWaitForFunctionOptions { Timeout = 30_000 });
        return (await page.EvaluateAsync<string>("() => navigator.clipboard.readText()"), await dashboard.Api.GetStringAsync(url));
    }

    [Fact]
    public async Task TheCopyButtonsPutTheApisMarkdownAndTextOnTheClipboard()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var (fast, slow) = await TwoRunsAsync(dashboard);

        var run = await browser.OpenAsync($"{dashboard.Url}/runs/{fast}", permissions: Clipboard);
        var (summary, summaryApi) = await CopyAsync(run, dashboard, "copy-summary", "markdown");
        Assert.Equal(summaryApi, summary);
        Assert.Equal("60", MarkdownTables.Find(summary, "Field").Single(r => r[0] == "Complete requests")[1]);
        var (text, textApi) = await CopyAsync(run, dashboard, "copy-summary", "text");
        Assert.Equal(textApi, text);
        Assert.Contains("Total number of calls:          60", text.Split('\n'));
        var (windows, windowsApi) = await CopyAsync(run, dashboard, "copy-windows", "markdown");
        Assert.Equal(windowsApi, windows);
        Assert.Equal(60, MarkdownTables.Find(windows, "Window").Skip(1).Sum(r => int.Parse(r[2], System.Globalization.CultureInfo.InvariantCulture)));
        var (windowsText, windowsTextApi) = await CopyAsync(run, dashboard, "copy-windows", "text");
        Assert.Equal(windowsTextApi, windowsText);

        var compare = await browser.OpenAsync($"{dashboard.Url}/compare?items={fast},{slow}", permissions: Clipboard);
        var (comparison, comparisonApi) = await CopyAsync(compare, dashboard, "copy-comparison", "markdown");
        Assert.Equal(comparisonApi, comparison);
        var table = MarkdownTables.Find(comparison, "Item");
        Assert.Equal(3, table.Count);
        Assert.Contains(" %)", table[2][3]); // the second item's median with its percentage of the baseline's
        var (comparisonText, comparisonTextApi) = await CopyAsync(compare, dashboard, "copy-comparison", "text");
        Assert.Equal(comparisonTextApi, comparisonText);
        await Browser.ScreenshotAsync(compare, "compare-copied");

        // Where the browser gives no clipboard, the text is left selected for Ctrl+C and the page says why.
        var bare = await browser.OpenAsync($"{dashboard.Url}/compare?items={fast},{slow}");
        await bare.EvaluateAsync("() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true })");
        await bare.ClickAsync("#copy-comparison button[data-format='markdown']");
        var fallback = bare.Locator("#copy-comparison textarea");
        await fallback.WaitForAsync(new LocatorWaitForOptions { State = WaitForSelectorState.Visible, Timeout = 30_000 });
        Assert.Equal(comparisonApi, await fallback.InputValueAsync());
        Assert.True(await bare.EvaluateAsync<bool>(
            "() => { const t = document.querySelector('#copy-comparison textarea'); return document.activeElement === t && t.selectionStart === 0 && t.selectionEnd === t.value.length; }"));
        Assert.Contains("Ctrl+C", await bare.TextContentAsync("#copy-comparison .copy-note"));
        Assert.Empty(browser.Errors);
    }

    /// <summary>Downloads the chart drawn on <paramref name="canvasId"/> in <paramref name="format"/>; the file's bytes.</summary>
    static async Task<byte[]> DownloadAsync(IPage page, string canvasId, string format)
    {
        var download = await page.RunAndWaitForDownloadAsync(() => page.ClickAsync($".chart-box:has(#{canvasId}) button[data-export='{format}']"),
            new PageRunAndWaitForDownloadOptions { Timeout = 30_000 });
        Assert.EndsWith("." + format, download.SuggestedFilename);
        // Kept beside the screenshots for a reviewer to look at.
        await download.SaveAsAsync(Path.Combine(Browser.ScreenshotFolder, download.SuggestedFilename));
        return await File.ReadAllBytesAsync(await download.PathAsync());
    }

    static void AssertPng(byte[] png)
    {
        Assert.Equal(new byte[] { 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A }, png[..8]);
        Assert.Equal("IHDR", System.Text.Encoding.ASCII.GetString(png, 12, 4));
        Assert.Equal(1200, BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(16)));
        Assert.Equal(600, BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(20)));
        Assert.True(png.Length > 10_000, $"{png.Length} bytes: a drawn chart, not an empty picture");
    }

    /// <summary>The SVG parses as XML, is 1200 × 600, and its text holds each of <paramref name="texts"/>.</summary>
    static void AssertSvg(byte[] svg, params IEnumerable<string> texts)
    {
        var document = XDocument.Parse(System.Text.Encoding.UTF8.GetString(svg));
        XNamespace ns = "http://www.w3.org/2000/svg";
        Assert.Equal(ns + "svg", document.Root!.Name);
        Assert.Equal("1200", document.Root.Attribute("width")?.Value);
        Assert.Equal("600", document.Root.Attribute("height")?.Value);
        var words = document.Descendants(ns + "text").Select(t => t.Value).ToList();
        // Each text keeps its font (svgcanvas reads it through a style the page's Content-Security-Policy would refuse).
        Assert.All(document.Descendants(ns + "text"), t => Assert.Matches(@"^\d+(\.\d+)?px$", t.Attribute("font-size")?.Value ?? ""));
        foreach (var text in texts) Assert.Contains(text, words);
    }

    static Task<string[]> LabelsAsync(IPage page, string canvasId) =>
        page.EvaluateAsync<string[]>("id => Chart.getChart(document.getElementById(id)).data.datasets.map(d => d.label).filter(l => l)", canvasId);

    [Fact]
    public async Task EveryChartDownloadsAsAPngAndAnSvgWithItsTitleAxesAndLegend()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var (fast, slow) = await TwoRunsAsync(dashboard);
        var created = await dashboard.Api.PostAsJsonAsync("/api/benchmarks", new
        {
            name = "chart images", kind = "http", parameters = new { url = $"{dashboard.Url}/target/delay?ms=2", requests = 40 },
        });
        created.EnsureSuccessStatusCode();
        var benchmark = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        for (var i = 0; i < 2; i++)
        {
            var queued = await dashboard.Api.PostAsync($"/api/benchmarks/{benchmark}/runs", null);
            queued.EnsureSuccessStatusCode();
            await dashboard.UntilEndedAsync((await queued.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());
        }

        // Every chart on each page has both buttons.
        var pages = new Dictionary<string, IPage>
        {
            ["run"] = await browser.OpenAsync($"{dashboard.Url}/runs/{fast}"),
            ["compare"] = await browser.OpenAsync($"{dashboard.Url}/compare?items={fast},{slow}"),
            ["trend"] = await browser.OpenAsync($"{dashboard.Url}/benchmarks/{benchmark}/trend"),
        };
        foreach (var (name, page) in pages)
        {
            var charts = await page.Locator(".chart-box canvas").CountAsync();
            Assert.True(charts > 0, $"the {name} page has charts");
            Assert.Equal(charts, await page.Locator(".chart-box button[data-export='png']").CountAsync());
            Assert.Equal(charts, await page.Locator(".chart-box button[data-export='svg']").CountAsync());
        }

        // The compare page's CDF: the picture has the chart's title, the page's heading, both axis titles and each item in the legend.
        var compare = pages["compare"];
        var items = await LabelsAsync(compare, "cdf-chart");
        Assert.Equal(2, items.Length);
        AssertPng(await DownloadAsync(compare, "cdf-chart", "png"));
        AssertSvg(await DownloadAsync(compare, "cdf-chart", "svg"), ["Cumulative distribution", "Compare", "latency", "share of requests at or below", .. items]);
        AssertSvg(await DownloadAsync(compare, "histogram-chart", "svg"), ["Histograms (shared logarithmic bins)", "requests", .. items]);

        var run = pages["run"];
        AssertPng(await DownloadAsync(run, "percentile-chart", "png"));
        AssertSvg(await DownloadAsync(run, "percentile-chart", "svg"), ["Percentile distribution", $"Run #{fast} completed", .. await LabelsAsync(run, "percentile-chart")]);

        var trend = pages["trend"];
        AssertPng(await DownloadAsync(trend, "trend-chart", "png"));
        AssertSvg(await DownloadAsync(trend, "trend-chart", "svg"), ["Latency and throughput per run", "chart images over time", "p50", "p95", "p99", "succeeded/s", "latency", "successful operations per second"]);
        await Browser.ScreenshotAsync(compare, "compare-chart-buttons");
        Assert.True(browser.Errors.Count == 0, string.Join("\n", browser.Errors));
    }
}
