using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The compare table's ratio and its verdict are one figure from one basis, in the same direction.</summary>
public class CompareBasisTests
{
    [Fact]
    public async Task ASettingFourTimesSlowerReadsSlowerByTheVerdictsOwnRatioAtEveryJudgedPercentile()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var response = await client.PostAsJsonAsync("/api/runs", new
        {
            kind = "http", url = target.Url("/delay?ms=5").ToString(), requests = 120, warmupRequests = 10, repeat = 3, separateRuns = true, pick = "best",
            variants = new object[] { new { name = "delay-5ms" }, new { name = "delay-20ms", url = target.Url("/delay?ms=20").ToString() } },
        });
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var repeat = await response.Content.ReadFromJsonAsync<JsonElement>();
        foreach (var run in repeat.GetProperty("runs").EnumerateArray()) await DashboardFactory.WaitForEndAsync(client, run.GetProperty("id").GetInt64());
        var link = repeat.GetProperty("compare").GetString()!;

        var json = await client.GetFromJsonAsync<JsonElement>("/api" + link);
        var slow = json.GetProperty("items").EnumerateArray().Single(i => !i.GetProperty("isBaseline").GetBoolean());
        var key = slow.GetProperty("key").GetString()!;
        Assert.Matches(@"^delay-20ms — 3 runs: #\d+, #\d+, #\d+$", slow.GetProperty("label").GetString());
        var html = WebUtility.HtmlDecode(await client.GetStringAsync(link));
        var row = Regex.Match(html, $"<tr data-item=\"{Regex.Escape(key)}\">(.*?)</tr>", RegexOptions.Singleline).Groups[1].Value;

        foreach (var (metric, column, percentName) in new[] { ("median", "Median", "median"), ("p95", "P95", "p95"), ("p99", "P99", "p99") })
        {
            var verdict = json.GetProperty("verdicts").EnumerateArray().Single(v => v.GetProperty("item").GetString() == key && v.GetProperty("metric").GetString() == metric);
            var change = verdict.GetProperty("change").GetDouble();
            // The table's figure against the baseline's is the verdict's estimate, exactly.
            Assert.Equal(1 + change, slow.GetProperty("percentOfBaseline").GetProperty(percentName).GetDouble() / 100, 9);
            // 20 ms against 5 ms: about 4× at the median; the tail of a loaded machine's 5 ms runs can come nearer, but
            // never past, the 20 ms runs' (the finding was a "1.02× faster" p99 for a setting 4× slower).
            if (metric == "median") Assert.InRange(1 + change, 2.5, 8);
            else Assert.True(1 + change > 1.1, $"{metric} at {1 + change:0.00}× the baseline's");
            var ratio = Regex.Match(row, $"data-metric=\"{column}\">.*?<span class=\"ratio[^\"]*\">([^<]+)</span>", RegexOptions.Singleline).Groups[1].Value;
            Assert.Equal((1 + change).ToString("0.00", CultureInfo.InvariantCulture) + "× slower", ratio);
            Assert.NotEqual("Faster", verdict.GetProperty("call").GetString());
            if (verdict.GetProperty("call").GetString() == "Slower") Assert.StartsWith(ratio + " (", verdict.GetProperty("text").GetString());
        }
        Assert.Contains("id=\"basis\"", html);

        // The same names and the setting's URL in full in every format, nothing of it hidden as a secret.
        var fast = target.Url("/delay?ms=5").ToString();
        foreach (var format in new[] { "markdown", "text", "csv" })
        {
            var text = await client.GetStringAsync("/api" + link + "&format=" + format);
            Assert.Contains("delay-20ms — 3 runs: #", text);
            Assert.Contains("delay-5ms — 3 runs: #", text);
            Assert.DoesNotContain("(hidden", text);
        }
        var report = WebUtility.HtmlDecode(await client.GetStringAsync(link.Replace("/compare?", "/compare/report?")));
        Assert.Contains("url " + fast, report);
        Assert.DoesNotContain("(hidden", report);
        // Each run of the setting is named by it on its page, its report, its Markdown and its text.
        var first = repeat.GetProperty("runs")[0].GetProperty("id").GetInt64();
        Assert.Matches(@"Setting:\s+delay-5ms", await client.GetStringAsync($"/api/runs/{first}?format=text"));
        Assert.StartsWith($"### Run {first}: delay-5ms (http)", await client.GetStringAsync($"/api/runs/{first}?format=markdown"));
        foreach (var path in new[] { $"/runs/{first}", $"/runs/{first}/report" })
            Assert.Contains("delay-5ms · <code>GET " + fast, WebUtility.HtmlDecode(await client.GetStringAsync(path)));
    }
}
