using System.Globalization;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser.Jobs;

/// <summary>
/// A seed's job as a new user does it on a fresh dashboard with the demo benchmarks: open the dashboard, go to
/// Benchmarks, press Run now on the seed's demo benchmark, and read the answer at the top of the run's page
/// once the run has ended (the finished page takes the live one's place without a step).
/// </summary>
static class DemoJob
{
    public const int Width = 1400, Height = 1000;
    static readonly TimeSpan Patience = TimeSpan.FromMinutes(3);

    /// <summary>The three steps; returns the answer, already visible.</summary>
    public static async Task<ILocator> RunAsync(UserSteps steps, string dashboardUrl, string benchmarkName)
    {
        await steps.TypeAddressAsync(dashboardUrl);
        await steps.ClickAsync(steps.Page.GetByRole(AriaRole.Link, new() { Name = "Benchmarks", Exact = true }), "Benchmarks");
        var row = steps.Page.Locator("tr", new() { HasText = benchmarkName });
        await steps.ClickAsync(row.GetByRole(AriaRole.Button, new() { Name = "Run now" }), $"Run now on '{benchmarkName}'");
        var answer = steps.Page.Locator("#answer");
        await answer.WaitForAsync(new() { Timeout = (float)Patience.TotalMilliseconds });
        return answer;
    }

    /// <summary>Fails unless the whole answer lies in the first screen, without scrolling.</summary>
    public static async Task AssertInFirstScreenAsync(IPage page, ILocator answer)
    {
        Assert.Equal(0, await page.EvaluateAsync<double>("() => window.scrollY"));
        var box = await answer.BoundingBoxAsync();
        Assert.NotNull(box);
        Assert.True(box.Y >= 0 && box.Y + box.Height <= Height,
            $"the answer spans y = {box.Y:0} to {box.Y + box.Height:0}, beyond the first {Height} px");
    }

    /// <summary>The answer at 1,400 px and at 390 px, for a reviewer to look at.</summary>
    public static async Task ScreenshotsAsync(IPage page, string name)
    {
        await Browser.ScreenshotAsync(page, name);
        await page.SetViewportSizeAsync(390, Height);
        await Browser.ScreenshotAsync(page, name + "-390");
        await page.SetViewportSizeAsync(Width, Height);
    }

    /// <summary>"447.9 ms", "168.0 µs", "1.234 s" as nanoseconds: to check a figure the page shows against the API's.</summary>
    public static double Nanoseconds(string shown)
    {
        var parts = shown.Trim().Split(' ');
        var value = double.Parse(parts[0], NumberStyles.Number, CultureInfo.InvariantCulture);
        return value * parts[1] switch { "ns" => 1, "µs" => 1e3, "ms" => 1e6, "s" => 1e9, var unit => throw new FormatException(unit) };
    }
}
