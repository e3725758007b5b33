using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Web.Tests.Deployment;
using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>The forms in chromium: only the fields that apply show, the count says what it stands for as one types, a benchmark is deleted after a dialog.</summary>
[Collection(PublishedApps.Collection)]
public sealed class BrowserFormTests(PublishedOutput published)
{
    static Task<bool> ShownAsync(IPage page, string name) => page.Locator($"[name='{name}']").IsVisibleAsync();

    [Fact]
    public async Task SwitchingTheModeAndTheModelShowsOnlyTheirFieldsAndTheTotalFollowsTheTyping()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync($"{dashboard.Url}/runs/new?kind=http");

        // A count, closed: no duration, no rate, no stages.
        Assert.True(await ShownAsync(page, "Http.Requests"));
        Assert.False(await ShownAsync(page, "Http.DurationSeconds"));
        Assert.False(await ShownAsync(page, "Http.Rate"));
        Assert.False(await ShownAsync(page, "Http.Stages"));
        Assert.False(await page.GetByText("(open model only)").First.IsVisibleAsync()); // the no-script hints hide with script

        await page.CheckAsync("input[name='Http.Mode'][value='duration']");
        Assert.False(await ShownAsync(page, "Http.Requests"));
        Assert.True(await ShownAsync(page, "Http.DurationSeconds"));

        await page.CheckAsync("input[name='Http.Model'][value='open']");
        Assert.True(await ShownAsync(page, "Http.Rate"));
        Assert.True(await ShownAsync(page, "Http.Stages"));
        await Browser.ScreenshotAsync(page, "form-http-open-duration");

        await page.CheckAsync("input[name='Http.Model'][value='closed']");
        await page.CheckAsync("input[name='Http.Mode'][value='requests']");
        Assert.False(await ShownAsync(page, "Http.Rate"));
        Assert.True(await ShownAsync(page, "Http.Requests"));

        // "Requests" is per variant: with two more variants, 50 is 150 requests, said as it is typed.
        await page.FillAsync("input[name='Http.Requests']", "50");
        Assert.Equal("50 requests in all.", await page.TextContentAsync("output.load-total"));
        await page.GetByLabel("Variant 2 name").FillAsync("B");
        await page.ClickAsync("#add-variant");
        await page.GetByLabel("Variant 3 name").FillAsync("C");
        Assert.Equal("per variant: 3 variants × 50 = 150 requests in all.", await page.TextContentAsync("output.load-total"));
        await page.FillAsync("input[name='Http.Requests']", "40");
        Assert.Equal("per variant: 3 variants × 40 = 120 requests in all.", await page.TextContentAsync("output.load-total"));
        await Browser.ScreenshotAsync(page, "form-http-variants");

        // Table: the matrix of ticked settings is the variants; no agents field.
        await page.GotoAsync($"{dashboard.Url}/runs/new?kind=table");
        Assert.Equal("per variant: 8 variants × 200 = 1,600 requests in all.", await page.TextContentAsync("output.load-total"));
        await page.UncheckAsync("input[name='Table.Nagle'][value='off']");
        Assert.Equal("per variant: 4 variants × 200 = 800 requests in all.", await page.TextContentAsync("output.load-total"));
        Assert.Equal(0, await page.Locator("[name='Agents']").CountAsync());
        Assert.Empty(browser.Errors);
    }

    [Fact]
    public async Task ABenchmarkIsDeletedFromTheListAfterTheBoxAndTheDialog()
    {
        await using var dashboard = await BrowserDashboard.StartAsync(published);
        await using var browser = await Browser.StartAsync();
        var created = await dashboard.Api.PostAsJsonAsync("/api/benchmarks", new { name = "short-lived", kind = "cache", parameters = new { requests = 5 } });
        created.EnsureSuccessStatusCode();
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var page = await browser.OpenAsync($"{dashboard.Url}/benchmarks");

        string? asked = null;
        page.Dialog += async (_, dialog) => { asked = dialog.Message; await dialog.AcceptAsync(); };
        var row = page.Locator("tr", new() { HasText = "short-lived" });
        await row.Locator("input[name='confirm']").CheckAsync();
        await row.GetByRole(AriaRole.Button, new() { Name = "Delete" }).ClickAsync();
        await page.WaitForSelectorAsync("#benchmark-deleted");

        Assert.Equal("Delete the benchmark 'short-lived'? Its runs are kept.", asked);
        Assert.Equal(System.Net.HttpStatusCode.NotFound, (await dashboard.Api.GetAsync($"/api/benchmarks/{id}")).StatusCode);
        Assert.Empty(browser.Errors);
    }
}
