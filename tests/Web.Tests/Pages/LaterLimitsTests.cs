using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A limit added after runs ended does not rewrite their verdict: every view shows the recorded one and, beside it, today's.</summary>
public class LaterLimitsTests
{
    static readonly object Parameters = new { backend = "memory", requests = 50, keyCount = 10 };

    [Fact]
    public async Task RunsThatPassedWithNoLimitsStayPassedWhenALimitIsAddedAndEveryViewSaysTodaysWouldFailThem()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var created = await client.PostAsJsonAsync("/api/benchmarks", new { name = "limits added later", kind = "cache", parameters = Parameters });
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var benchmarkId = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var earlier = new[] { await RunAsync(client, benchmarkId), await RunAsync(client, benchmarkId) };

        // A median no in-process operation can meet.
        var limited = await client.PutAsJsonAsync($"/api/benchmarks/{benchmarkId}",
            new { name = "limits added later", kind = "cache", parameters = Parameters, thresholds = new { maxMedianMs = 0.000001 } });
        Assert.Equal(HttpStatusCode.OK, limited.StatusCode);
        var later = await RunAsync(client, benchmarkId);

        var list = WebUtility.HtmlDecode(await client.GetStringAsync("/"));
        var trend = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/{benchmarkId}/trend"));
        var trendApi = (await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{benchmarkId}/trend")).GetProperty("runs").EnumerateArray().ToDictionary(r => r.GetProperty("runId").GetInt64());
        foreach (var id in earlier)
        {
            var run = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
            Assert.Equal(JsonValueKind.Null, run.GetProperty("thresholds").ValueKind); // no limits when it ended
            Assert.True(run.GetProperty("thresholdsRecorded").GetBoolean());
            Assert.False(run.GetProperty("thresholdsToday").GetProperty("passed").GetBoolean());
            Assert.Equal("medianMs", run.GetProperty("thresholdsToday").GetProperty("checks")[0].GetProperty("metric").GetString()); // machine names stay
            Assert.StartsWith("today's limits would fail this run (median ", run.GetProperty("thresholdsRemark").GetString());
            Assert.EndsWith(" ms, limit 0.000001 ms)", run.GetProperty("thresholdsRemark").GetString());
            Assert.Equal(("good", "completed"), (run.GetProperty("outcome").GetProperty("level").GetString(), run.GetProperty("outcome").GetProperty("label").GetString()));
            Assert.StartsWith("today's limits would fail this run", trendApi[id].GetProperty("thresholdsRemark").GetString());
            Assert.Equal(JsonValueKind.Null, trendApi[id].GetProperty("thresholds").ValueKind);

            var row = Row(list, id);
            Assert.Equal("good", row.Level);
            Assert.Contains("today's limits would fail", row.Cells);
            Assert.DoesNotContain("✗ limits", row.Cells);

            var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
            Assert.Contains("status-outcome-good", page);
            Assert.Contains("Limits: <strong>–</strong> (none set when it ended).", page);
            Assert.Matches(@"<span id=""limits-today"">Today's limits would fail this run \(median [0-9.]+ ms, limit 0\.000001 ms\)\.</span>", page);

            var trendRow = Regex.Match(Flat(trend), $@"<tr data-run=""{id}"">((?:(?!</tr>).)*)</tr>").Groups[1].Value;
            Assert.Matches(@"<td>–\s*<br /><span class=""muted limits-today"">Today's limits would fail this run \(median", trendRow);
        }

        // The run after the limit fails it, with no remark: its limits are today's.
        var failed = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{later}");
        Assert.False(failed.GetProperty("thresholds").GetProperty("passed").GetBoolean());
        Assert.Equal(JsonValueKind.Null, failed.GetProperty("thresholdsRemark").ValueKind);
        Assert.Equal(("bad", "limits failed"), (failed.GetProperty("outcome").GetProperty("level").GetString(), failed.GetProperty("outcome").GetProperty("label").GetString()));
        Assert.Matches(@"^median [0-9.]+ ms, limit 0\.000001 ms$", failed.GetProperty("outcome").GetProperty("reason").GetString());
        var laterRow = Row(list, later);
        Assert.Equal("bad", laterRow.Level);
        Assert.Contains("✗ limits", laterRow.Cells);
        Assert.DoesNotContain("today's limits", laterRow.Cells);
        Assert.Contains("✗ failed: median ", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{later}")));

        // What benchdash prints is the same answer as text: the recorded verdict and today's beside it.
        var text = await client.GetStringAsync($"/api/runs/{earlier[0]}?format=text");
        Assert.Contains("Limits:                         none set\n", text.ReplaceLineEndings("\n"));
        Assert.Contains("Limits today:                   today's limits would fail this run (median ", text);
    }

    static async Task<long> RunAsync(HttpClient client, int benchmarkId)
    {
        var queued = await client.PostAsync($"/api/benchmarks/{benchmarkId}/runs", null);
        Assert.Equal(HttpStatusCode.Created, queued.StatusCode);
        var id = (await queued.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        Assert.Equal("completed", (await DashboardFactory.WaitForEndAsync(client, id)).GetProperty("status").GetString());
        return id;
    }

    static (string Level, string Cells) Row(string list, long id)
    {
        var row = Regex.Match(Flat(list), $@"<tr class=""row-(\w+)"" data-run=""{id}""[^>]*>((?:(?!</tr>).)*)</tr>");
        Assert.True(row.Success, $"run {id} is not on the runs list");
        return (row.Groups[1].Value, row.Groups[2].Value);
    }

    static string Flat(string html) => html.ReplaceLineEndings(" ");
}
