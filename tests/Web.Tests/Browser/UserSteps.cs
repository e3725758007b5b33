using Microsoft.Playwright;

namespace BenchDashboard.Web.Tests.Browser;

/// <summary>
/// A user's actions on the dashboard, counted: each address typed, click, field filled, option chosen or box
/// ticked is one step. Waiting for a page or a run to finish is not a step; reading the answer is not either.
/// The seeds' job tests drive the pages only through this, so their step counts are honest.
/// </summary>
sealed class UserSteps(IPage page)
{
    readonly List<string> taken = [];

    public IPage Page => page;

    /// <summary>The steps so far, as "click: Run now" lines, for a failure message.</summary>
    public IReadOnlyList<string> Taken => taken;

    public int Count => taken.Count;

    public async Task TypeAddressAsync(string url)
    {
        taken.Add($"address: {url}");
        await page.GotoAsync(url);
    }

    public async Task ClickAsync(ILocator target, string what)
    {
        taken.Add($"click: {what}");
        await target.ClickAsync();
    }

    public async Task FillAsync(ILocator field, string value, string what)
    {
        taken.Add($"fill: {what} = {value}");
        await field.FillAsync(value);
    }

    public async Task ChooseAsync(ILocator select, string option, string what)
    {
        taken.Add($"choose: {what} = {option}");
        await select.SelectOptionAsync(option);
    }

    public async Task TickAsync(ILocator box, string what)
    {
        taken.Add($"tick: {what}");
        await box.CheckAsync();
    }

    /// <summary>Fails naming every step when the job took more than <paramref name="most"/>.</summary>
    public void AtMost(int most) =>
        Assert.True(Count <= most, $"the job took {Count} steps, more than {most}:\n{string.Join("\n", taken)}");
}
