using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The A/A check: a benchmark's settings against themselves, judged as the compare page judges them.</summary>
public class AaCheckTests
{
    static async Task<int> SaveBenchmarkAsync(DashboardFactory app, object parameters)
    {
        using var scope = app.Services.CreateScope();
        var (saved, errors) = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().SaveAsync(null, "aa", parameters, null, enabled: true, default);
        Assert.Empty(errors);
        return saved!.Id;
    }

    static async Task<JsonElement> UntilFinishedAsync(HttpClient client, int checkId)
    {
        var deadline = DateTime.UtcNow.AddMinutes(3);
        while (true)
        {
            var check = await client.GetFromJsonAsync<JsonElement>($"/api/aa-checks/{checkId}");
            if (check.GetProperty("finished").GetBoolean()) return check;
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"A/A check {checkId}: {check.GetProperty("runsEnded")} of {check.GetProperty("runs")} runs ended after 3 min.");
            await Task.Delay(200);
        }
    }

    [Fact]
    public async Task ACheckRunsBothDesignsAndReportsTheirCallsAsTheComparePageMakesThem()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        var id = await SaveBenchmarkAsync(app, new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), Requests = 60, WarmupRequests = 10 });

        var started = await client.PostAsync($"/api/benchmarks/{id}/aa-checks?rounds=3", null);
        Assert.Equal(HttpStatusCode.Created, started.StatusCode);
        var checkId = (await started.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var check = await UntilFinishedAsync(client, checkId);

        Assert.Equal(9, check.GetProperty("runs").GetInt32()); // 3 rounds of an interleaved run and two separate ones
        foreach (var design in new[] { "interleaved", "separate" })
        {
            var d = check.GetProperty(design);
            Assert.Equal((3, 3), (d.GetProperty("experiments").GetInt32(), d.GetProperty("judged").GetInt32()));
            var calls = d.GetProperty("items").EnumerateArray().Select(e => e.GetProperty("call").GetString()).ToList();
            Assert.Equal(calls.Count(c => c is "faster" or "slower"), d.GetProperty("falseCalls").GetInt32());
            Assert.Equal((double)d.GetProperty("falseCalls").GetInt32() / 3, d.GetProperty("falseCallRate").GetDouble(), 9);
            Assert.True(d.GetProperty("detectableChange").GetDouble() > 0);
            // Every experiment is what the compare page says for its two items.
            foreach (var e in d.GetProperty("items").EnumerateArray())
            {
                var items = e.GetProperty("items").GetString()!;
                var page = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={Uri.EscapeDataString(items)}");
                var median = page.GetProperty("verdicts").EnumerateArray().Single(v => v.GetProperty("metric").GetString() == "median");
                Assert.Equal(median.GetProperty("call").GetString(), e.GetProperty("call").GetString());
                Assert.Equal(design == "interleaved" ? "interleaved" : "runHistory", median.GetProperty("noise").GetString());
            }
        }
        Assert.Matches(@"^\d+/A,\d+/B$", check.GetProperty("interleaved").GetProperty("items")[0].GetProperty("items").GetString());

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/{id}/aa-check"));
        Assert.Contains("9 of 9 runs ended.", html);
        Assert.Contains("<tr data-design=\"interleaved\">", html);
        Assert.Contains("<tr data-design=\"separate\">", html);
        Assert.Contains("href=\"/benchmarks/" + id + "/aa-check\">A/A check</a>", await client.GetStringAsync("/benchmarks"));
    }

    [Fact]
    public async Task BadRoundsAreA400NamingThemAndAnUnknownBenchmarkIsA404()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient();
        var id = await SaveBenchmarkAsync(app, new HttpParameters { Url = "http://127.0.0.1:1/", Requests = 5 });

        foreach (var rounds in new[] { "1", "11", "lots", "-3" })
        {
            var response = await client.PostAsync($"/api/benchmarks/{id}/aa-checks?rounds={rounds}", null);
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.True((await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("rounds", out _));
        }
        Assert.Equal(HttpStatusCode.NotFound, (await client.PostAsync("/api/benchmarks/999/aa-checks", null)).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/aa-checks/999")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/benchmarks/999/aa-check")).StatusCode);
        // Nothing was queued by the refusals.
        Assert.Empty((await client.GetFromJsonAsync<JsonElement>("/api/runs")).EnumerateArray());

        // A check that is queued: three runs a round, all waiting (no runner here).
        var started = await client.PostAsync($"/api/benchmarks/{id}/aa-checks?rounds=2", null);
        Assert.Equal(HttpStatusCode.Created, started.StatusCode);
        var check = await started.Content.ReadFromJsonAsync<JsonElement>();
        Assert.Equal(6, check.GetProperty("runs").GetInt32());
        Assert.Equal(0, check.GetProperty("runsEnded").GetInt32());
        Assert.Equal(2, check.GetProperty("separate").GetProperty("pending").GetInt32());

        // A run deleted meanwhile has ended for the check: its experiment is left out, not waited for.
        var firstSeparate = long.Parse(check.GetProperty("separate").GetProperty("items")[0].GetProperty("items").GetString()!.Split(',')[0]);
        using (var scope = app.Services.CreateScope())
            Assert.Equal(BenchDashboard.Core.Stores.DeleteOutcome.Deleted, await scope.ServiceProvider.GetRequiredService<BenchDashboard.Core.Stores.RunQueue>().DeleteAsync(firstSeparate, default));
        var after = await client.GetFromJsonAsync<JsonElement>($"/api/aa-checks/{check.GetProperty("id").GetInt32()}");
        Assert.Equal(1, after.GetProperty("runsEnded").GetInt32());
        Assert.Equal((1, 1), (after.GetProperty("separate").GetProperty("notCompleted").GetInt32(), after.GetProperty("separate").GetProperty("pending").GetInt32()));
    }
}
