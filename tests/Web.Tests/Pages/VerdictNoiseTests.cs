using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>Which evidence the compare page and API judge by, with the runs and history in the database.</summary>
public class VerdictNoiseTests
{
    static async Task<List<long>> IdenticalRunsAsync(HttpClient client, int count)
    {
        var ids = new List<long>();
        for (var i = 0; i < count; i++)
        {
            var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 300, keyCount = 30, valueBytes = 64 });
            await DashboardFactory.WaitForEndAsync(client, id);
            ids.Add(id);
        }
        return ids;
    }

    static JsonElement Median(JsonElement api) => api.GetProperty("verdicts").EnumerateArray().First(v => v.GetProperty("metric").GetString() == "median");

    [Fact]
    public async Task SingleRunsAreJudgedByTheirHistoryAndGroupsRunByRun()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var ids = await IdenticalRunsAsync(client, 2);

        // Two identical runs and nothing else of those settings: requests alone, so nothing is called.
        var alone = Median(await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={ids[0]},{ids[1]}"));
        Assert.Equal(("requestsOnly", "cannotTell"), (alone.GetProperty("noise").GetString(), alone.GetProperty("call").GetString()));
        Assert.StartsWith("cannot tell from one run a side", alone.GetProperty("text").GetString());

        // Three more identical runs are the history the same two are judged against.
        ids.AddRange(await IdenticalRunsAsync(client, 3));
        var judged = Median(await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={ids[0]},{ids[1]}&margin=5"));
        Assert.Equal("runHistory", judged.GetProperty("noise").GetString());
        Assert.Contains("3 earlier identical runs", judged.GetProperty("explanation").GetString());
        var requestsOnly = judged.GetProperty("requestsOnly");
        Assert.True(judged.GetProperty("lower").GetDouble() <= requestsOnly.GetProperty("lower").GetDouble());

        // Groups of separate runs: "+" encoded, or a space (what an unencoded '+' becomes).
        var grouped = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={ids[0]}%2B{ids[2]}%2B{ids[4]},{ids[1]}+{ids[3]}");
        var median = Median(grouped);
        Assert.Equal("runGroups", median.GetProperty("noise").GetString());
        Assert.Equal((3, 2), (median.GetProperty("baselineRuns").GetInt32(), median.GetProperty("itemRuns").GetInt32()));
        Assert.Equal($"{ids[1]}+{ids[3]}", median.GetProperty("item").GetString());
        var single = (await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={ids[0]},{ids[1]}")).GetProperty("items")[0].GetProperty("stats").GetProperty("count").GetInt32();
        Assert.Equal(3 * single, grouped.GetProperty("items")[0].GetProperty("stats").GetProperty("count").GetInt32()); // counts add up
        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/compare?items={ids[0]}%2B{ids[2]}%2B{ids[4]},{ids[1]}%2B{ids[3]}"));
        Assert.Contains("resamples the runs and then the requests within each", html);
        Assert.Contains($"#{ids[0]}+#{ids[2]}+#{ids[4]}", html);
        // The margin can be changed on the page: a form that judges the same items again.
        var margined = WebUtility.HtmlDecode(await client.GetStringAsync($"/compare?items={ids[0]},{ids[1]}&margin=5"));
        Assert.Matches("<form method=\"get\" action=\"/compare\" class=\"inline\" id=\"margin-form\">\\s*<input type=\"hidden\" name=\"items\" value=\"" + ids[0] + "," + ids[1] + "\"", margined);
        Assert.Contains("name=\"margin\" type=\"number\"", margined);
        Assert.Contains("value=\"5\"", margined);
        Assert.Contains("inside ±5 %", margined);
    }

    [Fact]
    public async Task AMarginThatIsNotAPercentageIsA400NamingIt()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var response = await client.GetAsync("/api/compare?items=1,2&margin=lots");
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.True((await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("margin", out _));
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/compare?items=1,2&margin=lots")).StatusCode);
    }

    [Fact]
    public async Task VariantsAreCheckedOneByOneAndKeyedByPosition()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var response = await client.PostAsJsonAsync("/api/runs", new
        {
            kind = "http", url = "http://127.0.0.1:1/x", requests = 10,
            variants = new object[] { new { name = "A" }, new { name = "A", method = "BREW" }, new { name = "with/slash" } },
        });
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var errors = (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
        Assert.Contains("Two variants are named 'A'", errors.GetProperty("variants[1].name")[0].GetString());
        Assert.True(errors.TryGetProperty("variants[1].method", out _));
        Assert.True(errors.TryGetProperty("variants[2].name", out _));

        var one = await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = "http://127.0.0.1:1/x", requests = 10, variants = new object[] { new { name = "A" } } });
        Assert.Equal(HttpStatusCode.BadRequest, one.StatusCode);
        Assert.True((await one.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("variants", out _));
    }

    [Fact]
    public async Task RepeatQueuesEachVariantAsSeparateRunsInTurnAndLinksTheirGroups()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        var response = await client.PostAsJsonAsync("/api/runs", new
        {
            kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 40, repeat = 3, separateRuns = true,
            // 1 ms against 10 ms: with three runs a group, the call rests on run-to-run noise, and one run disturbed by
            // the other tests' processes (the agents' tests start four) made 1 ms against 3 ms "no clear difference".
            variants = new object[] { new { name = "one" }, new { name = "ten", url = target.Url("/delay?ms=10").ToString() } },
        });
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var body = await response.Content.ReadFromJsonAsync<JsonElement>();
        var runs = body.GetProperty("runs").EnumerateArray().ToList();
        Assert.Equal(6, runs.Count);
        var urls = runs.Select(r => r.GetProperty("parameters").GetProperty("url").GetString()!).ToList();
        Assert.All(urls.Where((_, i) => i % 2 == 0), u => Assert.EndsWith("ms=1", u)); // A B A B …
        Assert.All(urls.Where((_, i) => i % 2 == 1), u => Assert.EndsWith("ms=10", u));
        Assert.All(runs, r => Assert.Equal(JsonValueKind.Null, r.GetProperty("parameters").GetProperty("variants").ValueKind));
        var ids = runs.Select(r => r.GetProperty("id").GetInt64()).ToList();
        Assert.Equal([$"{ids[0]}+{ids[2]}+{ids[4]}", $"{ids[1]}+{ids[3]}+{ids[5]}"], body.GetProperty("groups").EnumerateArray().Select(g => g.GetString()));

        foreach (var id in ids) await DashboardFactory.WaitForEndAsync(client, id);
        var compare = body.GetProperty("compare").GetString()!;
        Assert.StartsWith("/compare?items=", compare);
        var api = await client.GetFromJsonAsync<JsonElement>("/api" + compare);
        var median = Median(api);
        Assert.Equal(("runGroups", "slower"), (median.GetProperty("noise").GetString(), median.GetProperty("call").GetString()));
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync(compare)).StatusCode);
    }

    [Fact]
    public async Task ARepeatThatCannotBeDoneQueuesNothing()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        async Task<JsonElement> RefusedAsync(object request)
        {
            var response = await client.PostAsJsonAsync("/api/runs", request);
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            return (await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
        }

        Assert.True((await RefusedAsync(new { kind = "http", url = "http://127.0.0.1:1/", requests = 5, repeat = 1 })).TryGetProperty("repeat", out _));
        Assert.True((await RefusedAsync(new { kind = "http", url = "http://127.0.0.1:1/", requests = 5, repeat = "3" })).TryGetProperty("repeat", out _));
        Assert.True((await RefusedAsync(new { kind = "http", url = "http://127.0.0.1:1/", requests = 5, repeat = 3, separateRuns = true })).TryGetProperty("separateRuns", out _));
        Assert.True((await RefusedAsync(new
        {
            kind = "http", url = "http://127.0.0.1:1/", requests = 5, repeat = 3, separateRuns = true,
            variants = new object[] { new { }, new { url = "ftp://x" } },
        })).TryGetProperty("variants[1].url", out _));
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }
}
