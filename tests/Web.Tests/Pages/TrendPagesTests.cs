using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

public class TrendPagesTests
{
    [Fact]
    public async Task ABenchmarksLimitsAreJudgedOnEachRunAndItsTrendListsItsRuns()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var editor = await client.GetStringAsync("/benchmarks/edit?kind=cache");
        List<KeyValuePair<string, string>> fields =
        [
            new("Name", "cache with limits"), new("kind", "cache"), new("Enabled", "true"),
            new("Cache.Backend", "memory"), new("Cache.Mode", "requests"), new("Cache.Requests", "100"), new("Cache.KeyCount", "10"),
            new("Cache.ValueBytes", "16"), new("Cache.Concurrency", "1"), new("Cache.TimeoutMs", "1000"), new("Cache.KeyPrefix", "trend"),
            new("Cache.Phases", ""), new("Cache.Phases", "write"), new("Cache.Phases", "read-same"),
            // No in-process operation takes less than a picosecond, and none of them fails.
            new("Limits.MaxP95Ms", "0.000000001"), new("Limits.MaxErrorPercent", "0"), new("Limits.ChangeMarginPercent", "10"), new("Limits.ConfirmRuns", "4"),
            new("__RequestVerificationToken", FormPost.Token(editor)),
        ];
        Assert.Equal(HttpStatusCode.Redirect, (await client.PostAsync("/benchmarks/edit", new FormUrlEncodedContent(fields))).StatusCode);
        var list = await client.GetStringAsync("/benchmarks");
        var benchmarkId = Regex.Match(list, "href=\"/benchmarks/edit/(\\d+)\">cache with limits<").Groups[1].Value;

        var runIds = new List<long>();
        for (var i = 0; i < 4; i++)
        {
            var run = await client.PostAsync($"/benchmarks?handler=Run&id={benchmarkId}", new FormUrlEncodedContent([new("__RequestVerificationToken", FormPost.Token(list))]));
            var id = long.Parse(run.Headers.Location!.ToString().Split('/').Last());
            await DashboardFactory.WaitForEndAsync(client, id);
            runIds.Add(id);
        }

        var last = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{runIds[^1]}");
        var thresholds = last.GetProperty("thresholds");
        Assert.False(thresholds.GetProperty("passed").GetBoolean());
        Assert.Equal([("p95Ms", false), ("errorPercent", true)],
            thresholds.GetProperty("checks").EnumerateArray().Select(c => (c.GetProperty("metric").GetString(), c.GetProperty("passed").GetBoolean())));
        Assert.False(last.GetProperty("regression").GetProperty("flagged").GetBoolean());
        Assert.Equal(runIds[0], last.GetProperty("regression").GetProperty("levelSinceRunId").GetInt64());

        var trend = await client.GetFromJsonAsync<JsonElement>($"/api/benchmarks/{benchmarkId}/trend");
        Assert.Equal(runIds, trend.GetProperty("runs").EnumerateArray().Select(r => r.GetProperty("runId").GetInt64()));
        Assert.All(trend.GetProperty("runs").EnumerateArray(), r => Assert.Equal(JsonValueKind.Object, r.GetProperty("regression").ValueKind)); // each judged
        Assert.Equal((10.0, 4), (trend.GetProperty("thresholds").GetProperty("changeMarginPercent").GetDouble(), trend.GetProperty("thresholds").GetProperty("confirmRuns").GetInt32()));

        var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/{benchmarkId}/trend"));
        Assert.Equal(runIds.AsEnumerable().Reverse().Select(i => i.ToString()), Regex.Matches(page, "<tr data-run=\"(\\d+)\">").Select(m => m.Groups[1].Value));
        Assert.Contains("p95 ≤ 0.000000001 ms", page); // a limit below 0.001 ms keeps its digits: "0 ms" would be another limit
        Assert.Contains("✗ limits", WebUtility.HtmlDecode(await client.GetStringAsync("/")));
        Assert.Contains("✗ failed: p95 ", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{runIds[0]}")));

        // The editor shows the limits again, and a bad one is refused beside its field with nothing stored.
        var edit = await client.GetStringAsync($"/benchmarks/edit/{benchmarkId}");
        Assert.Contains("name=\"Limits.ConfirmRuns\" value=\"4\"", edit);
        var bad = fields.Where(f => !f.Key.StartsWith("Limits.ConfirmRuns", StringComparison.Ordinal) && f.Key != "__RequestVerificationToken")
            .Append(new("Limits.ConfirmRuns", "1")).Append(new("__RequestVerificationToken", FormPost.Token(edit))).ToList();
        var refused = WebUtility.HtmlDecode(await (await client.PostAsync($"/benchmarks/edit/{benchmarkId}", new FormUrlEncodedContent(bad))).Content.ReadAsStringAsync());
        Assert.Matches("data-valmsg-for=\"Limits.ConfirmRuns\"[^>]*>Confirm a change with 2 to 20 runs.</span>", refused);
        Assert.Contains("name=\"Limits.ConfirmRuns\" value=\"4\"", await client.GetStringAsync($"/benchmarks/edit/{benchmarkId}"));
    }

    [Fact]
    public async Task ARunThatFailedFailsItsBenchmarksLimitsForACiGate()
    {
        await using var app = new DashboardFactory(new() { ["ConnectionStrings:dead"] = "127.0.0.1:1,connectTimeout=1000" });
        var client = app.CreateClient();
        long runId;
        using (var scope = app.Services.CreateScope())
        {
            var store = scope.ServiceProvider.GetRequiredService<BenchmarkStore>();
            var (saved, errors) = await store.SaveAsync(null, "unreachable cache",
                new CacheParameters { Backend = CacheBackend.Redis, Connection = "dead", Requests = 10 }, null, true, default, new Thresholds { MaxErrorPercent = 5 });
            Assert.Empty(errors);
            runId = (await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(saved!, default)).Run!.Id; // what "Run now" does
        }

        var result = await DashboardFactory.WaitForEndAsync(client, runId);

        Assert.Equal("failed", result.GetProperty("status").GetString());
        Assert.False(result.GetProperty("thresholds").GetProperty("passed").GetBoolean());
        Assert.Equal("completed (was failed)", result.GetProperty("thresholds").GetProperty("checks")[0].GetProperty("metric").GetString());
    }
}
