using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Tests.Pages;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>An open-model run from the API and from the form, and everywhere its two latencies show.</summary>
public class OpenModelApiTests
{
    [Fact]
    public async Task AnOpenRunReportsCorrectedLatencyWithServiceTimeLagAndTheAchievedRateEverywhere()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var created = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = target.Url("/delay?ms=2").ToString(), model = "open", rate = 200, durationSeconds = 2, concurrency = 4 });
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        var run = await DashboardFactory.WaitForEndAsync(client, id);

        Assert.Equal("completed", run.GetProperty("status").GetString());
        var stats = run.GetProperty("stats");
        Assert.Equal("open", stats.GetProperty("model").GetString());
        Assert.Equal(400, stats.GetProperty("count").GetInt32());
        var service = stats.GetProperty("serviceTime");
        Assert.InRange(service.GetProperty("p50Ms").GetDouble(), 2.0, 50.0);
        Assert.True(stats.GetProperty("p50Ms").GetDouble() >= service.GetProperty("p50Ms").GetDouble()); // corrected ≥ service, sample by sample
        Assert.Equal(400, stats.GetProperty("lag").GetProperty("count").GetInt32());
        var perSecond = run.GetProperty("load").GetProperty("perSecond").EnumerateArray().ToList();
        // 200 due in each of the two seconds; an operation due near the end that started late (a busy machine)
        // adds a third second in which it started and none was due.
        Assert.Equal([200, 200], perSecond.Take(2).Select(p => p.GetProperty("due").GetInt32()));
        Assert.All(perSecond.Skip(2), p => Assert.Equal(0, p.GetProperty("due").GetInt32()));
        Assert.Equal(400, perSecond.Sum(p => p.GetProperty("started").GetInt32()));

        var samples = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples");
        Assert.All(samples.EnumerateArray(), s => Assert.True(s.GetProperty("lagMs").GetDouble() >= 0));
        var csv = (await client.GetStringAsync($"/api/runs/{id}/samples?format=csv")).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.EndsWith(",lag_ns,shard", csv[0]);
        Assert.All(csv.Skip(1), line => Assert.True(long.Parse(line.Split(',')[^2]) >= 0));

        // Windows and comparisons of either latency; a misspelt basis is a 400 naming the field.
        var corrected = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/analysis");
        var serviceWindows = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/analysis?latency=service");
        Assert.True(corrected.GetProperty("all").GetProperty("meanMs").GetDouble() >= serviceWindows.GetProperty("all").GetProperty("meanMs").GetDouble());
        Assert.Equal(service.GetProperty("p99Ms").GetDouble(), serviceWindows.GetProperty("all").GetProperty("p99Ms").GetDouble());
        var refused = await client.GetAsync($"/api/runs/{id}/analysis?latency=services");
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("\"latency\"", await refused.Content.ReadAsStringAsync());

        var closed = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = target.Url("/delay?ms=2").ToString(), requests = 100 });
        var closedId = (await closed.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, closedId);
        var compared = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={closedId},{id}&latency=service");
        Assert.Equal(2, compared.GetProperty("items").GetArrayLength());
        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync($"/api/compare?items={closedId},{id}&latency=x")).StatusCode);

        // The page: both ladders side by side, the generator's chart, and the switch of basis for the windows.
        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        Assert.Contains("corrected</th><th class=\"num\">service time", html);
        Assert.Contains("id=\"load-chart\"", html);
        Assert.Contains("open: 200 /s for 2 s, at most 4 in flight", html);
        Assert.Contains("\"load\":[{\"second\":0,\"due\":200", html);
        Assert.Contains("<strong>corrected</strong>", html);
        Assert.Contains("<strong>service time</strong>", WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}?latency=service")));
        Assert.Contains("compare service time", WebUtility.HtmlDecode(await client.GetStringAsync($"/compare?items={closedId},{id}")));
        Assert.DoesNotContain("id=\"load-chart\"", await client.GetStringAsync($"/runs/{closedId}"));
    }

    [Fact]
    public async Task TheFormStartsAnOpenRunWithStagesAndPutsAMalformedStageBesideItsField()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(new WebApplicationFactoryClientOptions { AllowAutoRedirect = false });
        Dictionary<string, string> Fields(string stages) => new()
        {
            ["Http.Url"] = target.Url("/ok").ToString(), ["Http.Method"] = "GET", ["Http.Mode"] = "requests", ["Http.Requests"] = "100",
            ["Http.Concurrency"] = "2", ["Http.TimeoutMs"] = "1000", ["Http.WarmupRequests"] = "0",
            ["Http.Model"] = "open", ["Http.Rate"] = "0", ["Http.Stages"] = stages,
        };

        var bad = await FormPost.SubmitAsync(client, "/runs/new", Fields("1 100\nfast please"));
        Assert.Equal(HttpStatusCode.OK, bad.StatusCode);
        Assert.Matches("data-valmsg-for=\"Http.Stages\"[^>]*>'fast please' is not a stage", WebUtility.HtmlDecode(await bad.Content.ReadAsStringAsync()));
        var negative = await FormPost.SubmitAsync(client, "/runs/new", Fields("1 100\n1 -5"));
        Assert.Matches("data-valmsg-for=\"Http.Stages\"[^>]*>stages\\[1\\].rate: ", WebUtility.HtmlDecode(await negative.Content.ReadAsStringAsync()));
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());

        // 0 → 100 /s over 1 s (50 operations), then 100 /s for 1 s: the count field is ignored, the stages set the length.
        var good = await FormPost.SubmitAsync(client, "/runs/new", Fields("1 100\n1s 100/s"));
        Assert.Equal(HttpStatusCode.Redirect, good.StatusCode);
        var id = long.Parse(good.Headers.Location!.OriginalString["/runs/".Length..]);
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        Assert.Equal(150, run.GetProperty("stats").GetProperty("count").GetInt32());
        var parameters = run.GetProperty("parameters");
        Assert.Equal(JsonValueKind.Null, parameters.GetProperty("requests").ValueKind);
        Assert.Equal(2, parameters.GetProperty("stages").GetArrayLength());

        // The editor shows the stored schedule back.
        var editor = WebUtility.HtmlDecode(await client.GetStringAsync("/benchmarks/edit?kind=http"));
        Assert.Contains("name=\"Limits.Latency\"", editor);
        Assert.Contains("name=\"Http.Stages\"", editor);
    }
}
