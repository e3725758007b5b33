using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core.Statistics;
using BenchDashboard.TestSupport;
using HdrHistogram;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>A run's .hlog read back with HdrHistogram's own reader, against the run's exact statistics.</summary>
public sealed class HistogramLogApiTests
{
    [Fact]
    public async Task TheLogReadsBackWithTheRunsCountAndItsExactPercentilesWithinHdrHistogramsPrecision()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        // The warm-up is left out of the log, as it is of the statistics.
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=3").ToString(), requests = 500, warmupRequests = 20 });
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        var stats = run.GetProperty("stats");
        var samples = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/samples");
        var ranked = samples.EnumerateArray().Where(s => !s.GetProperty("isWarmup").GetBoolean() && s.GetProperty("error").GetString() == "none").ToList();

        var response = await client.GetAsync($"/api/runs/{id}/histogram.hlog");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var bytes = await response.Content.ReadAsByteArrayAsync();
        Assert.True(bytes.All(b => b < 0x80), "the log is ASCII, as the Java tools read it");
        var text = System.Text.Encoding.ASCII.GetString(bytes);
        Assert.StartsWith($"#[BenchDashboard run {id}: latency of each", text); // a closed run's latency is not "corrected"
        // Not HistogramLogReader.Read: it disposes its reader before the lazy sequence is read.
        using var reader = new HistogramLogReader(new MemoryStream(bytes));
        var intervals = reader.ReadHistograms().ToList();

        Assert.True(intervals.Count >= 2, $"{intervals.Count} intervals: 500 operations of 3 ms take over a second");
        Assert.All(intervals, h => Assert.Equal(1000, h.EndTimeStamp - h.StartTimeStamp));
        // The first interval is the second of the run in which the first measured operation started, on the clock (to the millisecond).
        var firstSecond = (long)ranked.Min(s => s.GetProperty("offsetMs").GetDouble()) / 1000;
        Assert.InRange(intervals[0].StartTimeStamp - run.GetProperty("startedUtc").GetDateTimeOffset().ToUnixTimeMilliseconds() - firstSecond * 1000, -1, 1);
        var whole = new LongHistogram(LiveHistogram.HighestNs, LiveHistogram.SignificantDigits);
        foreach (var interval in intervals) whole.Add(interval);

        Assert.Equal(500, ranked.Count);
        Assert.Equal(ranked.Count, whole.TotalCount);
        Assert.Equal(stats.GetProperty("count").GetInt32() - stats.GetProperty("errors").GetInt32(), whole.TotalCount);

        foreach (var (field, permille) in new[] { ("p50Ms", 500), ("p90Ms", 900), ("p99Ms", 990), ("p999Ms", 999), ("maxMs", 1000) })
        {
            var exact = (long)Math.Round(stats.GetProperty(field).GetDouble() * 1e6);
            // Read at the nearest rank, ⌈p · n⌉, as the stored statistics are: HdrHistogram rounds p · n instead.
            var rank = (permille * whole.TotalCount + 999) / 1000;
            var logged = whole.GetValueAtPercentile(100.0 * rank / whole.TotalCount);
            // Within the precision of 3 significant digits: the same bucket as the exact value.
            Assert.True(whole.LowestEquivalentValue(logged) == whole.LowestEquivalentValue(exact), $"{field}: {logged} ns logged, {exact} ns exact");
        }
    }

    [Fact]
    public async Task AnUnknownRunIsNotFoundAndAnUnknownLatencyBasisIsRefused()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        Assert.Equal(HttpStatusCode.NotFound, (await client.GetAsync("/api/runs/999/histogram.hlog")).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.GetAsync("/api/runs/999/histogram.hlog?latency=fastest")).StatusCode);
    }

    [Fact]
    public async Task ARunStillRunningIsAConflictNotAHalfLog()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=20").ToString(), requests = 5000 });
        await DashboardFactory.WaitForProgressAsync(client, id, 5);

        var response = await client.GetAsync($"/api/runs/{id}/histogram.hlog");

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Contains("running", (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("detail").GetString());
        await client.PostAsync($"/api/runs/{id}/cancel", null);
        await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync($"/api/runs/{id}/histogram.hlog")).StatusCode); // a cancelled run's samples are kept: so is its log
    }
}
