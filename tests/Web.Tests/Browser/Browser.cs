using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// Debian's chromium (<c>/usr/bin/chromium</c>, installed by scripts/test.sh), driven by Playwright for .NET;
/// never a downloaded browser. Every console error and page error of every page is kept, and screenshots go
/// under the test output (<c>screenshots/</c> beside the test assembly) for a reviewer to look at.
/// </summary>
sealed class Browser : IAsyncDisposable
{
    public const string Chromium = "/usr/bin/chromium";

    readonly IPlaywright playwright;
    readonly IBrowser browser;

    Browser(IPlaywright playwright, IBrowser browser)
    {
        this.playwright = playwright;
        this.browser = browser;
    }

    /// <summary>Console errors and uncaught page errors, from every page opened here.</summary>
    public List<string> Errors { get; } = [];

    public static string ScreenshotFolder { get; } = Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, "screenshots")).FullName;

    public static async Task<Browser> StartAsync()
    {
        Assert.True(File.Exists(Chromium), $"{Chromium} is missing: scripts/test.sh installs Debian's chromium package.");
        var playwright = await Playwright.CreateAsync();
        var browser = await playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
        {
            ExecutablePath = Chromium,
            Headless = true,
            // As root in a container chromium needs --no-sandbox; the others keep it off a network it cannot reach.
            Args = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        });
        return new Browser(playwright, browser);
    }

    /// <param name="permissions">Granted to the page's origin: "clipboard-read" and "clipboard-write" for the copy buttons.</param>
    public async Task<IPage> OpenAsync(string url, int width = 1400, int height = 1000, string[]? permissions = null)
    {
        var page = await browser.NewPageAsync(new BrowserNewPageOptions { ViewportSize = new ViewportSize { Width = width, Height = height }, Permissions = permissions });
        page.Console += (_, message) => { if (message.Type == "error") lock (Errors) Errors.Add($"{page.Url}: {message.Text} ({message.Location})"); };
        page.RequestFailed += (_, request) => { lock (Errors) Errors.Add($"{page.Url}: {request.Url} failed ({request.Failure})"); };
        page.Response += (_, response) => { if (response.Status >= 400) lock (Errors) Errors.Add($"{page.Url}: {response.Url} answered {response.Status}"); };
        page.PageError += (_, error) => { lock (Errors) Errors.Add($"{page.Url}: {error}"); };
        await page.GotoAsync(url);
        return page;
    }

    /// <summary>A context of its own (offline, with listeners of its own), for a test that opens saved files.</summary>
    public Task<IBrowserContext> NewContextAsync(int width = 1400, int height = 1000) =>
        browser.NewContextAsync(new BrowserNewContextOptions { ViewportSize = new ViewportSize { Width = width, Height = height } });

    public static Task ScreenshotAsync(IPage page, string name) =>
        page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.Combine(ScreenshotFolder, name + ".png"), FullPage = true });

    /// <summary>For each canvas on the page, how many of its pixels are not transparent (a drawn chart has thousands).</summary>
    public static async Task<Dictionary<string, int>> DrawnPixelsAsync(IPage page) =>
        await page.EvaluateAsync<Dictionary<string, int>>("""
            () => Object.fromEntries([...document.querySelectorAll('canvas')].map(c => {
                const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                let drawn = 0;
                for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) drawn++;
                return [c.id, drawn];
            }))
            """);

    public async ValueTask DisposeAsync()
    {
        await browser.DisposeAsync();
        playwright.Dispose();
    }
}
