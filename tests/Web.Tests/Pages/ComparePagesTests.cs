using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace BenchDashboard.Web.Tests.Pages;

public class ComparePagesTests
{
    static async Task<List<long>> CacheRunsAsync(HttpClient client, int count)
    {
        var ids = new List<long>();
        for (var i = 0; i < count; i++)
        {
            var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 300, keyCount = 30, valueBytes = 16 * (i + 1) });
            await DashboardFactory.WaitForEndAsync(client, id);
            ids.Add(id);
        }
        return ids;
    }

    static List<string> Rows(string html, string tableId) =>
        Regex.Matches(Regex.Match(html, $"<table id=\"{tableId}\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value, "<tr data-item=\"([^\"]+)\">")
            .Select(m => m.Groups[1].Value).ToList();

    [Theory]
    [InlineData(2)]
    [InlineData(4)]
    public async Task ThePageRendersTheRunsAndTheApiGivesItsNumbers(int count)
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var ids = await CacheRunsAsync(client, count);
        var items = string.Join(",", ids);

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/compare?items={items}&baseline={ids[1]}"));
        var api = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={items}&baseline={ids[1]}");

        Assert.Equal(ids.Select(i => i.ToString()), Rows(html, "comparison"));
        Assert.Equal(ids.Where(i => i != ids[1]).Select(i => i.ToString()), Rows(html, "verdicts"));
        Assert.Contains($"<strong id=\"baseline\">#{ids[1]}</strong>", html);
        Assert.Equal(ids[1].ToString(), api.GetProperty("baseline").GetString());
        foreach (var item in api.GetProperty("items").EnumerateArray())
        {
            // The median cell of the page shows the API's p50 for the same item.
            var row = Regex.Match(html, $"<tr data-item=\"{item.GetProperty("key").GetString()}\">(.*?)</tr>", RegexOptions.Singleline).Groups[1].Value;
            var medianCell = Regex.Match(row, "<td class=\"num\" data-metric=\"Median\">([^<]*)").Groups[1].Value;
            var p50Ns = item.GetProperty("stats").GetProperty("p50Ms").GetDouble() * 1e6;
            // "170 ns", "1.234 µs", "10.27 ms": four significant digits in the unit its size calls for.
            var shown = Regex.Match(medianCell, @"^([\d,.]+) (ns|µs|ms|s)$");
            Assert.True(shown.Success, medianCell);
            var ns = double.Parse(shown.Groups[1].Value, CultureInfo.InvariantCulture) * shown.Groups[2].Value switch { "ns" => 1, "µs" => 1e3, "ms" => 1e6, _ => 1e9 };
            Assert.InRange(ns, p50Ns * 0.9995 - 0.5, p50Ns * 1.0005 + 0.5);
        }
        foreach (var verdict in api.GetProperty("verdicts").EnumerateArray())
            Assert.Contains(verdict.GetProperty("text").GetString()!, html);
        Assert.Equal(3 * (count - 1), api.GetProperty("verdicts").GetArrayLength()); // median, p95 and p99
        // Only the value size differs between these runs: it is listed, and nothing else.
        Assert.Equal(["parameters.valueBytes"], api.GetProperty("differences").EnumerateArray().Select(d => d.GetProperty("field").GetString()));
    }

    [Fact]
    public async Task PhasesOfOneRunCompareAndExportAsCsv()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = (await CacheRunsAsync(client, 1))[0];

        var api = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={id}/write&items={id}/read-miss");
        Assert.Equal(["series"], api.GetProperty("differences").EnumerateArray().Select(d => d.GetProperty("field").GetString()));
        Assert.Equal(300, api.GetProperty("items")[1].GetProperty("stats").GetProperty("count").GetInt32());

        var csv = (await client.GetStringAsync($"/api/compare?items={id}/write,{id}/read-miss&format=csv")).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.StartsWith("item,label,baseline,totaltime_ms,mean_ms,median_ms", csv[0]);
        Assert.Equal(3, csv.Length);
        Assert.StartsWith($"{id}/write,write — #{id},1,", csv[1]); // the series named first, as every compare label
        Assert.Contains(",100,", csv[1]); // the baseline is 100 % of itself
    }

    [Fact]
    public async Task BadItemsAreExplainedNotAnError()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = (await CacheRunsAsync(client, 1))[0];

        Assert.Contains("Choose 2 to 8 runs", WebUtility.HtmlDecode(await client.GetStringAsync($"/compare?items={id}")));
        Assert.Contains("There is no run 999.", WebUtility.HtmlDecode(await client.GetStringAsync($"/compare?items={id},999")));
        var api = await client.GetAsync($"/api/compare?items={id},{id}/nope");
        Assert.Equal(HttpStatusCode.BadRequest, api.StatusCode);
        Assert.Contains("has no series 'nope'", await api.Content.ReadAsStringAsync());
        // The picker lists the finished run with its phases.
        Assert.Contains($"value=\"{id}/read-miss\"", await client.GetStringAsync("/compare"));
    }
}
