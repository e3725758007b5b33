using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>The cache experiment (writes, reads, misses) through the API with the in-process backend (Redis is covered in Runner.Tests).</summary>
public class CacheRunsApiTests
{
    [Fact]
    public async Task ACacheRunReportsEachPhaseWithHitsMissesAndPercentOfTheFirst()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 200, keyCount = 50, concurrency = 2 });

        var run = await DashboardFactory.WaitForEndAsync(client, id);

        Assert.Equal("completed", run.GetProperty("status").GetString());
        Assert.Equal("cache", run.GetProperty("kind").GetString());
        Assert.Equal(800, run.GetProperty("stats").GetProperty("count").GetInt32());
        var series = run.GetProperty("series").EnumerateArray().ToList();
        Assert.Equal(["write", "read-same", "read-distinct", "read-miss"], series.Select(s => s.GetProperty("name").GetString()));
        Assert.Equal([(0, 0), (200, 0), (200, 0), (0, 200)], series.Select(s => (s.GetProperty("hits").GetInt32(), s.GetProperty("misses").GetInt32())));
        Assert.All(series, s => Assert.Equal(200, s.GetProperty("stats").GetProperty("count").GetInt32()));
        Assert.Equal(100, series[0].GetProperty("percentOfFirst").GetProperty("median").GetDouble(), 9);
        var expected = series[3].GetProperty("stats").GetProperty("p50Ms").GetDouble() / series[0].GetProperty("stats").GetProperty("p50Ms").GetDouble() * 100;
        Assert.Equal(expected, series[3].GetProperty("percentOfFirst").GetProperty("median").GetDouble(), 6);
        Assert.Contains(run.GetProperty("notes").GetProperty("notes").EnumerateArray(), n => n.GetString()!.StartsWith("Cleanup: deleted 50 keys", StringComparison.Ordinal));

        var samples = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples");
        Assert.Equal("read-miss", samples[799].GetProperty("series").GetString());
        Assert.False(samples[799].GetProperty("hit").GetBoolean());
    }

    [Fact]
    public async Task RedisNeedsAConfiguredConnectionNameAndTheStringIsNeverReturned()
    {
        const string secret = "127.0.0.1:1,password=do-not-show-me";
        await using var app = new DashboardFactory(new() { ["ConnectionStrings:azure"] = secret });
        var client = app.CreateClient();

        var unknown = await client.PostAsJsonAsync("/api/runs", new { kind = "cache", backend = "redis", connection = "nope", requests = 10 });
        Assert.Equal(HttpStatusCode.BadRequest, unknown.StatusCode);
        Assert.Contains("No connection string named 'nope'", await unknown.Content.ReadAsStringAsync());

        // Port 1 refuses: the run fails with a reason, and neither the run nor its page shows the string.
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", backend = "redis", connection = "azure", requests = 10, timeoutMs = 2000 });
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("failed", run.GetProperty("status").GetString());
        Assert.Contains("Could not connect to the cache server of connection 'azure'", run.GetProperty("error").GetString());
        var page = await client.GetStringAsync($"/runs/{id}");
        Assert.DoesNotContain("do-not-show-me", run.GetRawText() + page);
        Assert.Contains("redis &#x27;azure&#x27;", page);
    }
}
