using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Api;

/// <summary><c>GET /api/runs/{id}?format=markdown</c>: tables that render (Markdig), the JSON's figures, secrets hidden from anonymous readers.</summary>
public class RunMarkdownApiTests
{
    const string Key = "md-key";

    [Fact]
    public async Task AFinishedRunsMarkdownRendersWithTheJsonFiguresAndHidesSecretsFromOthers()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", Key);
        const string name = "cache | on <script>alert(1)</script>";
        var saved = await admin.PostAsJsonAsync("/api/benchmarks", new
        {
            name, kind = "http",
            parameters = new { url = target.Url("/delay?ms=2&token=md-secret&q=a|b").ToString(), requests = 40, concurrency = 2 },
        });
        saved.EnsureSuccessStatusCode();
        var benchmark = (await saved.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var queued = await admin.PostAsync($"/api/benchmarks/{benchmark}/runs", null);
        queued.EnsureSuccessStatusCode();
        var id = (await queued.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        var json = await DashboardFactory.WaitForEndAsync(admin, id);
        var stats = json.GetProperty("stats");

        var answer = await admin.GetAsync($"/api/runs/{id}?format=markdown");
        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Equal("text/markdown", answer.Content.Headers.ContentType!.MediaType);
        var markdown = await answer.Content.ReadAsStringAsync();
        var html = MarkdownTables.Html(markdown);
        Assert.DoesNotContain("<script", html);
        Assert.Contains(WebUtility.HtmlEncode(name), html);

        var summary = MarkdownTables.Find(markdown, "Field").Skip(1).ToDictionary(r => r[0], r => r[1]);
        Assert.Equal("GET " + target.Url("/delay?ms=2&token=md-secret&q=a|b"), summary["Target"]); // the administrator sees it whole
        Assert.Equal("2", summary["Concurrency level"]);
        Assert.Equal(stats.GetProperty("count").GetInt32().ToString(CultureInfo.InvariantCulture), summary["Complete requests"]);
        Assert.Equal(Ms(stats.GetProperty("p50Ms")) + " ms", summary["Median"]);
        Assert.Equal(Ms(stats.GetProperty("p99Ms")) + " ms", summary["99th percentile"]);
        Assert.Equal(Ms(stats.GetProperty("maxMs")) + " ms", summary["Slowest"]);

        var ladder = MarkdownTables.Find(markdown, "Percentile");
        Assert.Equal(Ms(stats.GetProperty("p95Ms")), ladder.Single(r => r[0] == "95%")[1]);
        var windows = MarkdownTables.Find(markdown, "Window");
        Assert.Equal(40, windows.Skip(1).Sum(w => int.Parse(w[2], NumberStyles.AllowThousands, CultureInfo.InvariantCulture)));

        // An anonymous reader sees what the JSON shows it: the token fingerprinted.
        var anonymous = app.CreateClient();
        var shown = await anonymous.GetStringAsync($"/api/runs/{id}?format=markdown");
        Assert.DoesNotContain("md-secret", shown);
        Assert.Contains("token=(hidden, ", MarkdownTables.Find(shown, "Field").Single(r => r[0] == "Target")[1]);

        // JSON stays the default; a format or window it does not know is a 400 naming the field.
        Assert.Equal("application/json", (await admin.GetAsync($"/api/runs/{id}")).Content.Headers.ContentType!.MediaType);
        var badFormat = await admin.GetAsync($"/api/runs/{id}?format=xml");
        Assert.Equal(HttpStatusCode.BadRequest, badFormat.StatusCode);
        Assert.True((await badFormat.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("format", out _));
        var badWindow = await admin.GetAsync($"/api/runs/{id}?format=markdown&window=7");
        Assert.Equal(HttpStatusCode.BadRequest, badWindow.StatusCode);
        Assert.True((await badWindow.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("window", out _));
        Assert.Equal(HttpStatusCode.NotFound, (await admin.GetAsync("/api/runs/999999?format=markdown")).StatusCode);
    }

    [Fact]
    public async Task ARunThatHasNotFinishedIsAConflictThatSaysSo()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None" });
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/", requests = 1 });

        var answer = await client.GetAsync($"/api/runs/{id}?format=markdown");

        Assert.Equal(HttpStatusCode.Conflict, answer.StatusCode);
        Assert.Contains("has not finished", await answer.Content.ReadAsStringAsync());
    }

    static string Ms(JsonElement ms) => ms.GetDouble().ToString("F3", CultureInfo.InvariantCulture);
}
