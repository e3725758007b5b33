using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Browser.Jobs;

/// <summary>The Table Storage job: what Expect100Continue and Nagle do to single inserts and batches, as a matrix per operation.</summary>
[Collection(PublishedApps.Collection)]
public sealed class Seed003JobTests(PublishedOutput published)
{
    [Fact]
    public async Task ExpectAndNagleAreAMatrixPerOperationColouredOnlyByTheVerdictInTheFirstScreenInThreeSteps()
    {
        // The demo's connection "tables" is the development storage account; here, this test's own Azurite.
        await using var azurite = await Azurite.StartAsync();
        await using var dashboard = await BrowserDashboard.StartAsync(published, demo: true,
            new Dictionary<string, string?> { ["ConnectionStrings__tables"] = azurite.ConnectionString });
        await using var browser = await Browser.StartAsync();
        var page = await browser.OpenAsync("about:blank", DemoJob.Width, DemoJob.Height);
        var steps = new UserSteps(page);

        var answer = await DemoJob.RunAsync(steps, dashboard.Url, "Demo: Table Storage single vs. batch inserts, Expect and Nagle on and off");

        steps.AtMost(5);
        await DemoJob.AssertInFirstScreenAsync(page, answer);
        Assert.Equal(["Single insert: median per entity", "Batch of 10: median per entity"], await answer.Locator("h2").AllInnerTextsAsync());
        var id = long.Parse(page.Url.Split('/')[^1], CultureInfo.InvariantCulture);
        var figures = (await dashboard.Api.GetFromJsonAsync<JsonElement>($"/api/runs/{id}")).GetProperty("figures").EnumerateArray()
            .ToDictionary(f => f.GetProperty("series").GetString()!);
        Assert.Equal(8, figures.Count);
        foreach (var (series, f) in figures)
        {
            var cell = answer.Locator($"td[data-series='{series}']");
            var lines = (await cell.InnerTextAsync()).Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
            var median = f.GetProperty("p50PerEntityNs").GetDouble();
            Assert.Equal(median, DemoJob.Nanoseconds(lines[0]), median * 0.001);
            var baseline = figures[series.Split('/')[0] + "/expect-on/nagle-on"].GetProperty("p50PerEntityNs").GetDouble();
            var call = f.GetProperty("medianCall").ValueKind == JsonValueKind.Null ? null : f.GetProperty("medianCall").GetString();
            var css = await cell.GetAttributeAsync("class") ?? "";
            if (series.EndsWith("/expect-on/nagle-on")) Assert.Equal("baseline", lines[1]);
            else
            {
                // One figure, one way: the ratio to the baseline, "× faster" or "× slower".
                var (ratio, word) = median <= baseline ? (baseline / median, "faster") : (median / baseline, "slower");
                Assert.EndsWith($"× {word}", lines[1]);
                Assert.Equal(ratio, double.Parse(lines[1].Split('×')[0], NumberStyles.Number, CultureInfo.InvariantCulture), ratio * 0.01);
            }
            // Coloured exactly when the verdict calls a difference, and then a sentence says why.
            Assert.Equal(call == "slower", css.Contains("cell-worse"));
            Assert.Equal(call == "faster", css.Contains("cell-better"));
            Assert.Equal(call is "faster" or "slower" ? 1 : 0, await answer.Locator($"p.answer-reason[data-series='{series}']").CountAsync());
        }
        await DemoJob.ScreenshotsAsync(page, "job-seed003");
        Assert.Empty(browser.Errors);
    }
}
