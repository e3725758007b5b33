using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Api;

public class RunsApiTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    [Theory, MemberData(nameof(Providers))]
    public async Task ARunStartedThroughTheApiCompletesWithStatsInMilliseconds(string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = await DashboardFactory.OnAsync(provider);
        var client = app.CreateClient();

        var response = await client.PostAsJsonAsync("/api/runs", new
        {
            kind = "http", url = target.Url("/delay?ms=5").ToString(), requests = 60, concurrency = 2, warmupRequests = 4, keepAlive = true, timeoutMs = 5000, method = "GET",
        });

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var created = await response.Content.ReadFromJsonAsync<JsonElement>();
        var id = created.GetProperty("id").GetInt64();
        Assert.Equal($"/api/runs/{id}", response.Headers.Location!.OriginalString);
        Assert.Equal("queued", created.GetProperty("status").GetString());

        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        var stats = run.GetProperty("stats");
        Assert.Equal(60, stats.GetProperty("count").GetInt32());
        Assert.Equal(0, stats.GetProperty("errors").GetInt32());
        Assert.Equal(4, stats.GetProperty("warmupCount").GetInt32());
        Assert.InRange(stats.GetProperty("p50Ms").GetDouble(), 5.0, 50.0);
        Assert.True(stats.GetProperty("p99Ms").GetDouble() >= stats.GetProperty("p50Ms").GetDouble());
        Assert.True(stats.GetProperty("maxMs").GetDouble() >= stats.GetProperty("p99Ms").GetDouble());
        Assert.True(stats.GetProperty("requestsPerSecond").GetDouble() > 0);
        Assert.Equal(60, stats.GetProperty("responseClasses").GetProperty("status2xx").GetInt32());
        Assert.Equal(64, run.GetProperty("completedRequests").GetInt32());
    }

    [Fact]
    public async Task InvalidParametersAreAValidationProblemAndNothingIsQueued()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "not-a-url", requests = 10, concurrency = 0 });

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        var errors = problem.GetProperty("errors");
        Assert.True(errors.TryGetProperty("url", out _));
        Assert.True(errors.TryGetProperty("concurrency", out _));
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Fact]
    public async Task RunSizeLimitsComeFromConfigurationAndAreEnforcedBeforeQueueing()
    {
        await using var app = new DashboardFactory(new() { ["RunLimits:MaxConcurrency"] = "4" });
        var client = app.CreateClient();

        var tooMany = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", requests = 5001 });
        var tooWide = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", requests = 10, concurrency = 5 });

        Assert.Contains("RunLimits:MaxRequests", await tooMany.Content.ReadAsStringAsync());
        Assert.Contains("RunLimits:MaxConcurrency", await tooWide.Content.ReadAsStringAsync());
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Theory]
    [InlineData("""{"kind":"ftp","url":"http://127.0.0.1/","requests":1}""", "kind")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":1,"concurency":4}""", "concurency")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":"many"}""", "requests")]
    [InlineData("""{"kind":"cache","requests":10,"phase":["write"]}""", "phase")]
    [InlineData("""{"kind":"cache","requests":10,"phases":["writes"]}""", "phases")]
    [InlineData("""{"kind":"cache","requests":10,"backend":"memcached"}""", "backend")]
    [InlineData("""{"kind":"cache","requests":10,"phases":null}""", "Choose at least one phase")]
    [InlineData("""{"kind":"http","url":"http://169.254.169.254/latest/meta-data/","requests":1}""", "cloud metadata address")]
    [InlineData("""{"kind":"http","url":"http://10.0.0.1/","requests":1}""", "private range")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":1,"headers":null}""", "headers")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":10,"concurrency":2,"agents":"two"}""", "\"agents\":[\"agents is a whole number")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":10,"concurrency":2,"agents":0}""", "\"agents\":[\"agents is a whole number from 1 to 16")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":10,"concurrency":2,"agents":17}""", "RunLimits:MaxAgentsPerRun")]
    [InlineData("""{"kind":"http","url":"http://127.0.0.1/","requests":10,"agents":2}""", "concurrency 1 cannot be divided between 2 agents")]
    [InlineData("""{"kind":"cache","requests":10,"agents":2}""", "only HTTP runs are spread over agents")]
    public async Task UnknownKindsMisspelledFieldsAndWrongTypesAreRejected(string body, string field)
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await client.PostAsync("/api/runs", new StringContent(body, System.Text.Encoding.UTF8, "application/json"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains(field, await response.Content.ReadAsStringAsync());
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task CancellingARunningRunKeepsItsSamples(string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = await DashboardFactory.OnAsync(provider);
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=20").ToString(), requests = 5000 });
        await DashboardFactory.WaitForProgressAsync(client, id, 5);

        var cancel = await client.PostAsync($"/api/runs/{id}/cancel", null);

        Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("cancelled", run.GetProperty("status").GetString());
        var samples = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples");
        Assert.InRange(samples.GetArrayLength(), 5, 4999);
        Assert.Equal(HttpStatusCode.Conflict, (await client.PostAsync($"/api/runs/{id}/cancel", null)).StatusCode);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task SamplesDownloadAsCsvAndJsonWithNanosecondPrecision(string provider)
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = await DashboardFactory.OnAsync(provider);
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/status?code=503").ToString(), requests = 3 });
        await DashboardFactory.WaitForEndAsync(client, id);

        var csv = (await client.GetStringAsync($"/api/runs/{id}/samples?format=csv")).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var json = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples");

        Assert.Equal("index,warmup,connection,offset_ns,latency_ns,headers_ns,connect_ns,status,bytes,error,series,hit,lag_ns,shard", csv[0]);
        Assert.Equal(4, csv.Length);
        Assert.All(csv.Skip(1), line => Assert.EndsWith(",503,16,HttpStatus,,,,", line)); // a closed run: no lag; no agents: no shard
        Assert.Equal(3, json.GetArrayLength());
        Assert.Equal("httpStatus", json[0].GetProperty("error").GetString());
        var latencyNs = long.Parse(csv[1].Split(',')[4]);
        Assert.Equal(latencyNs / 1e6, json[0].GetProperty("latencyMs").GetDouble(), 9);
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task UnknownRunsAre404(string provider)
    {
        await using var app = await DashboardFactory.OnAsync(provider);
        var client = app.CreateClient();

        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/runs/999")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.PostAsync("/api/runs/999/cancel", null)).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/runs/999/samples")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/runs/999")).StatusCode);
    }

    [Fact]
    public async Task TheOpenApiDocumentDescribesTheRunsApi()
    {
        await using var app = new DashboardFactory();

        var document = await app.CreateClient().GetStringAsync("/openapi/v1.json");

        Assert.Contains("/api/runs/{id}/cancel", document);
        Assert.Contains("/api/runs/{id}/samples", document);
        Assert.Contains("/api/runs/{id}/histogram.hlog", document);
    }
}
