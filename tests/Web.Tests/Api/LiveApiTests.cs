using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>A run under way is watched through its runner's live figures, never its samples, and the answer is shared for a second.</summary>
public sealed class LiveApiTests
{
    [Fact]
    public async Task ARunUnderWayShowsLiveFiguresThatMoveAndItsExactOnesWhenItEnds()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=2").ToString(), durationSeconds = 4, concurrency = 2 });

        var seen = new List<int>();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        JsonElement run;
        while (true)
        {
            run = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}/live");
            if (run.GetProperty("status").GetString() is not ("queued" or "running")) break;
            if (run.GetProperty("live") is { ValueKind: JsonValueKind.Object } live)
            {
                Assert.Equal(JsonValueKind.Null, run.GetProperty("stats").ValueKind); // no figures from samples while it runs
                var measured = live.GetProperty("measured").GetInt32();
                if (seen.Count == 0 || measured != seen[^1]) seen.Add(measured);
                // Never below the target's delay (less the live histogram's 0.1 %). Above it only once there are enough requests for a median: the
                // first few of a young process (connecting, compiling) took 190 ms once, and they were all there was.
                if (measured > 0) Assert.True(live.GetProperty("p50Ms").GetDouble() >= 2 * 0.999, $"live p50 {live.GetProperty("p50Ms")} ms under a 2 ms target");
                if (measured >= 200) Assert.InRange(live.GetProperty("p50Ms").GetDouble(), 2 * 0.999, 50);
            }
            Assert.True(DateTime.UtcNow < deadline, "the run did not end");
            await Task.Delay(300);
        }

        Assert.True(seen.Count(m => m > 0) >= 2, $"live figures seen: {string.Join(", ", seen)}");
        Assert.Equal(seen, seen.Order()); // they only grow
        Assert.Equal("completed", run.GetProperty("status").GetString());
        Assert.Equal(JsonValueKind.Null, run.GetProperty("live").ValueKind);
        var final = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
        Assert.True(final.GetProperty("stats").GetProperty("count").GetInt32() >= seen.Max());
    }

    [Fact]
    public async Task QueueingAClosedRunWithADurationSaysWhereItWouldStopAndAScheduleBeyondTheBudgetIsRefused()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None", ["RunLimits:MaxSamplesPerRun"] = "5000", ["RunLimits:MaxRequests"] = "1000000" });
        var client = app.CreateClient();

        var created = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", durationSeconds = 5 });
        var notice = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("notices")[0].GetString();
        Assert.Equal("This run lasts 5 s unless it reaches 5,000 samples first (RunLimits:MaxSamplesPerRun): then it stops there, completed, and says so.", notice);

        var refused = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/", model = "open", rate = 2000, durationSeconds = 5 });
        Assert.Equal(System.Net.HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("a run stores at most 5,000 samples", await refused.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task TheSharedAnswerNeverShowsAnAdministratorsViewToOthers()
    {
        const string key = "live-key";
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = key, ["Runner:Embedded"] = "false" });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", key);
        var id = await DashboardFactory.CreateRunAsync(admin, new { kind = "http", url = "http://127.0.0.1:1/?token=live-secret", requests = 1 });
        var anonymous = app.CreateClient();

        // Both within one second, in both orders: each reader gets its own cached copy.
        Assert.Contains("live-secret", await admin.GetStringAsync($"/api/runs/{id}/live"));
        Assert.DoesNotContain("live-secret", await anonymous.GetStringAsync($"/api/runs/{id}/live"));
        Assert.Contains("live-secret", await admin.GetStringAsync($"/api/runs/{id}/live"));
    }
}
