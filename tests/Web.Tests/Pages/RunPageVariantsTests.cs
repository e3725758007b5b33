using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A run of variants shows each variant on its own (cards and every chart), and one palette colours every page.</summary>
public class RunPageVariantsTests
{
    static async Task<(DashboardFactory App, HttpClient Client, long Id)> RunOfThreeVariantsAsync(KestrelTarget target)
    {
        var app = new DashboardFactory();
        var client = app.CreateClient();
        var created = await client.PostAsJsonAsync("/api/runs", new
        {
            kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 40, concurrency = 1,
            variants = new object[] { new { name = "one" }, new { name = "three", url = target.Url("/delay?ms=3").ToString() }, new { name = "big", url = target.Url("/ok?size=8192").ToString() } },
        });
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, id);
        return (app, client, id);
    }

    static JsonElement ChartData(string html) =>
        JsonDocument.Parse(WebUtility.HtmlDecode(Regex.Match(html, "<script type=\"application/json\" id=\"chart-data\">(.*?)</script>", RegexOptions.Singleline).Groups[1].Value).Replace("<\\/", "</")).RootElement;

    static string[] Names(JsonElement array) => array.EnumerateArray().Select(s => s.GetProperty("name").GetString()!).ToArray();

    [Fact]
    public async Task ARunOfThreeVariantsHasACardAndASeriesPerVariantInEveryChartAndNoBlendedHeadline()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (app, client, id) = await RunOfThreeVariantsAsync(target);
        await using var _ = app;

        var html = await client.GetStringAsync($"/runs/{id}");
        string[] variants = ["one", "three", "big"];
        // The picker at the top: all side by side, and each variant.
        var picker = Regex.Match(html, "id=\"variant-picker\".*?</div>", RegexOptions.Singleline).Value;
        Assert.Contains("all, side by side", picker);
        Assert.All(variants, v => Assert.Contains($"series={v}", picker));
        Assert.True(html.IndexOf("id=\"variant-picker\"", StringComparison.Ordinal) < html.IndexOf("id=\"cards\"", StringComparison.Ordinal));
        // A card per variant, and no card of the blend.
        Assert.Equal(variants, Regex.Matches(html, "class=\"card variant-card\" data-series=\"([^\"]+)\"").Select(m => m.Groups[1].Value));
        Assert.DoesNotContain("id=\"card-p50\"", html);

        var data = ChartData(html);
        Assert.Equal(JsonValueKind.Null, data.GetProperty("picked").ValueKind);
        Assert.Equal(variants, data.GetProperty("seriesNames").EnumerateArray().Select(n => n.GetString()));
        Assert.Equal(variants, Names(data.GetProperty("windows").GetProperty("sets")));  // over time: rate and latency
        Assert.Equal(variants, Names(data.GetProperty("shapes")));                       // percentile plot and CDF
        Assert.Equal(variants, Names(data.GetProperty("histogram").GetProperty("sets")));
        Assert.Equal(variants.Order(), Names(data.GetProperty("series")).Order());        // per sample
        Assert.All(data.GetProperty("windows").GetProperty("sets").EnumerateArray(), s => Assert.True(s.GetProperty("rows").GetArrayLength() > 0));
    }

    [Fact]
    public async Task PickingAVariantShowsItsOwnFiguresInTheCardsAndOnlyItInTheCharts()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (app, client, id) = await RunOfThreeVariantsAsync(target);
        await using var _ = app;

        var all = await client.GetStringAsync($"/runs/{id}");
        var threeCard = Regex.Match(all, "variant-card\" data-series=\"three\">.*?data-field=\"p50\"[^>]*>([^<]+)<", RegexOptions.Singleline).Groups[1].Value;
        var picked = await client.GetStringAsync($"/runs/{id}?series=three");

        Assert.Contains("aria-current=\"true\" data-series=\"three\"", picked);
        Assert.Equal(threeCard, Regex.Match(picked, "id=\"card-p50\">([^<]+)<").Groups[1].Value); // its median, not the blend's
        Assert.Contains("Latency over time (three)", picked);
        var run = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
        var three = run.GetProperty("series").EnumerateArray().Single(s => s.GetProperty("name").GetString() == "three");
        Assert.Equal(three.GetProperty("stats").GetProperty("count").GetInt32().ToString("N0"), Regex.Match(picked, "id=\"card-count\">([^<]+)<").Groups[1].Value);
        Assert.Equal("three", ChartData(picked).GetProperty("picked").GetString()); // the script draws only its datasets
    }

    [Fact]
    public async Task PhasesThatFollowOneAnotherSitWhereTheyRanOnTheOverTimeCharts()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var created = await client.PostAsJsonAsync("/api/runs", new
        {
            kind = "cache", backend = "memory", phases = new[] { "write", "read-same" }, requests = 2000, keyCount = 100, valueBytes = 16, concurrency = 1,
        });
        Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, id);

        var sets = ChartData(await client.GetStringAsync($"/runs/{id}")).GetProperty("windows").GetProperty("sets");
        var write = sets.EnumerateArray().Single(s => s.GetProperty("name").GetString()!.EndsWith("write", StringComparison.Ordinal)).GetProperty("rows");
        var read = sets.EnumerateArray().Single(s => s.GetProperty("name").GetString()!.EndsWith("read-same", StringComparison.Ordinal)).GetProperty("rows");
        Assert.Equal(0, write[0].GetProperty("t").GetDouble());
        // One connection: the reads began after the last write was answered, so their first window is drawn there, not at 0.
        Assert.True(read[0].GetProperty("t").GetDouble() > 0, $"reads drawn from {read[0].GetProperty("t")} s");
        Assert.True(read[0].GetProperty("t").GetDouble() >= write[write.GetArrayLength() - 1].GetProperty("end").GetDouble() - 1e-6,
            $"reads drawn from {read[0].GetProperty("t")} s, writes until {write[write.GetArrayLength() - 1].GetProperty("end")} s");
    }

    [Fact]
    public async Task TheRunCompareAndTrendChartsTakeTheirColoursFromTheOnePalette()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var palette = await client.GetStringAsync("/js/palette.js");
        Assert.Matches("p95: '#[0-9a-f]{6}'", palette);
        foreach (var script in new[] { "run-details", "run-live", "compare", "trend" })
        {
            var text = await client.GetStringAsync($"/js/{script}.js");
            Assert.DoesNotMatch("#[0-9a-fA-F]{6}\\b", text); // no colour of its own: p95 is one colour on every page
            Assert.Contains("palette", text);
        }
        // Each page that draws them loads the palette before its script.
        var run = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", requests = 1 });
        var id = (await run.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, id);
        var page = await client.GetStringAsync($"/runs/{id}");
        Assert.True(page.IndexOf("/js/palette.js", StringComparison.Ordinal) is > 0 and var at && at < page.IndexOf("/js/run-details.js", StringComparison.Ordinal));
    }
}
