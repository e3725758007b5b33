using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>The steps editor in chromium: one request becomes step 1 of cards, cards are added, removed and submitted; a HAR file fills them.</summary>
[Collection(PublishedApps.Collection)]
public sealed class StepsEditorBrowserTests(PublishedOutput published)
{
    static ILocator Field(IPage page, int step, string field) => page.Locator($"[name='Http.Steps[{step}].{field}']");

    [Fact]
    public async Task OneRequestBecomesStepOneOfThreeCardsThatQueueAJourney()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http");
        Assert.Equal(0, await page.Locator("#step-cards .step-card").CountAsync());
        Assert.False(await page.Locator("#data-file").IsVisibleAsync());

        await page.FillAsync("[name='Http.Url']", $"{dashboard.Url}/target/delay?ms=1");
        await page.SelectOptionAsync("[name='Http.Method']", "POST");
        await page.FillAsync("[name='Http.Body']", """{"user":"a"}""");
        await page.ClickAsync("#add-step");

        // The one request is step 1 now, and a blank step 2 waits.
        Assert.Equal(2, await page.Locator("#step-cards .step-card").CountAsync());
        Assert.False(await page.Locator("[name='Http.Url']").IsVisibleAsync());
        Assert.Equal("", await page.InputValueAsync("[name='Http.Url']"));
        Assert.Equal($"{dashboard.Url}/target/delay?ms=1", await Field(page, 0, "Url").InputValueAsync());
        Assert.Equal("POST", await Field(page, 0, "Method").InputValueAsync());
        Assert.Equal("POST delay", await Field(page, 0, "Name").InputValueAsync());
        Assert.True(await page.Locator("#data-file").IsVisibleAsync());

        await Field(page, 0, "Name").FillAsync("signin");
        await Field(page, 0, "Extract").FillAsync("""[{"name":"token","header":"Content-Type","default":"none"}]""");
        await Field(page, 1, "Name").FillAsync("orders");
        await Field(page, 1, "Url").FillAsync($"{dashboard.Url}/target/delay?ms=2");
        Assert.False(await page.Locator(".step-card[data-step='1'] .secret-note").IsVisibleAsync());
        await Field(page, 1, "Headers").FillAsync("Authorization: Bearer {{token}}");
        Assert.True(await page.Locator(".step-card[data-step='1'] .secret-note").IsVisibleAsync());

        // A step added then removed leaves the others numbered 1, 2, 3 as the server binds them.
        await page.ClickAsync("#add-step");
        await page.ClickAsync("#add-step");
        await Field(page, 2, "Name").FillAsync("dropped");
        await page.Locator(".step-card[data-step='2'] .remove-step").ClickAsync();
        await Field(page, 2, "Name").FillAsync("detail");
        await Field(page, 2, "Url").FillAsync($"{dashboard.Url}/target/delay?ms={{{{counter}}}}");
        await Field(page, 2, "ThinkTime").FillAsync("""{"ms":5}""");
        Assert.Equal(["1", "2", "3"], await page.Locator(".step-card .step-number").AllTextContentsAsync());
        await Browser.ScreenshotAsync(page, "form-journey-3-steps");

        await page.ClickAsync("button[type=submit]");
        await page.WaitForURLAsync(new Regex("/runs/\\d+$"));

        var id = Regex.Match(page.Url, "/runs/(\\d+)$").Groups[1].Value;
        var steps = JsonDocument.Parse(await dashboard.Api.GetStringAsync($"/api/runs/{id}")).RootElement.GetProperty("parameters").GetProperty("steps");
        Assert.Equal(["signin", "orders", "detail"], steps.EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        Assert.Equal("""{"user":"a"}""", steps[0].GetProperty("body").GetString());
        Assert.Equal("Content-Type", steps[0].GetProperty("extract")[0].GetProperty("header").GetString());
        Assert.Equal(5, steps[2].GetProperty("thinkTime").GetProperty("ms").GetDouble());
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task AHarFileFillsTheCardsForReviewAndSaysWhatItLeftOut()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http");

        await page.SetInputFilesAsync("#har-file", Path.Combine(AppContext.BaseDirectory, "Fixtures", "journey.har"));
        await page.WaitForSelectorAsync("#har-result:has-text('step(s) from journey.har')");

        Assert.Equal(["POST signin", "GET orders", "GET 17", "GET orders 2"],
            await page.Locator("#step-cards [data-field=Name]").EvaluateAllAsync<string[]>("fields => fields.map(f => f.value)"));
        Assert.Equal("Bearer abc", (await Field(page, 1, "Headers").InputValueAsync()).Split("authorization: ")[1].Split('\n')[0]);
        Assert.True(await page.Locator(".step-card[data-step='1'] .secret-note").IsVisibleAsync());
        Assert.Equal("""[{"status":200}]""", await Field(page, 0, "Checks").InputValueAsync());
        Assert.Contains("Left out: GET https://shop.example/static/app.js?v=3: a static asset (a script).", await page.TextContentAsync("#har-result"));
        Assert.False(await page.Locator("[name='Http.Url']").IsVisibleAsync());
        await Browser.ScreenshotAsync(page, "form-journey-har");

        // Removing every card gives the last one's request back to the one request's fields.
        for (var left = 4; left > 0; left--) await page.Locator(".step-card .remove-step").First.ClickAsync();
        Assert.True(await page.Locator("[name='Http.Url']").IsVisibleAsync());
        Assert.Equal("https://shop.example/journey/orders?page=2", await page.InputValueAsync("[name='Http.Url']"));
        Assert.False(await page.Locator("#data-file").IsVisibleAsync());
        Assert.Empty(browser.Errors);
    }
}
