using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Web.Tests.Pages;

public class RunPagesTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    /// <summary>The HTTP fields of the new-run and benchmark forms, as a browser posts them.</summary>
    static Dictionary<string, string> HttpFields(string url, string requests, string concurrency = "1", string timeoutMs = "1000", string warmup = "0") => new()
    {
        ["Http.Url"] = url, ["Http.Method"] = "GET", ["Http.Mode"] = "requests", ["Http.Requests"] = requests,
        ["Http.Concurrency"] = concurrency, ["Http.TimeoutMs"] = timeoutMs, ["Http.WarmupRequests"] = warmup,
    };

    [Fact]
    public async Task TheNewRunFormRejectsBadInputBesideEachFieldAndQueuesNothing()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = HttpFields("ftp://example", "999999999", concurrency: "0");
        fields["Http.Headers"] = "no colon here";
        var response = await FormPost.SubmitAsync(client, "/runs/new", fields);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var html = WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync());
        Assert.Contains("'no colon here' is not a header: write one 'Name: value' per line.", html);
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());

        var second = await FormPost.SubmitAsync(client, "/runs/new", HttpFields("ftp://example", "999999999", concurrency: "0"));
        var secondHtml = WebUtility.HtmlDecode(await second.Content.ReadAsStringAsync());
        Assert.Contains("Enter an absolute http:// or https:// URL.", secondHtml);
        Assert.Contains("RunLimits:MaxRequests", secondHtml);
        Assert.Contains("Concurrency must be between 1 and", secondHtml);
        // Beside its field: the message is inside the validation span of Http.Url, not just somewhere on the page.
        Assert.Matches("data-valmsg-for=\"Http.Url\"[^>]*>Enter an absolute http:// or https:// URL.</span>", secondHtml);
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Fact]
    public async Task ANonNumberInANumberFieldIsAFieldErrorNotAQueuedRun()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var response = await FormPost.SubmitAsync(client, "/runs/new", HttpFields("http://127.0.0.1:1/", "lots"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("lots", WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync()));
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Fact]
    public async Task AValidFormQueuesARunWhosePageShowsTheLadderWhenDone()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = HttpFields(target.Url("/cacheable").ToString(), "40", concurrency: "2", timeoutMs: "5000", warmup: "3");
        fields["Http.KeepAlive"] = "true";
        var response = await FormPost.SubmitAsync(client, "/runs/new", fields);

        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        var location = response.Headers.Location!.OriginalString;
        var id = long.Parse(location["/runs/".Length..]);
        await DashboardFactory.WaitForEndAsync(client, id);

        var html = WebUtility.HtmlDecode(await client.GetStringAsync(location));
        Assert.Contains("id=\"ladder\"", html);
        foreach (var rung in new[] { "50%", "66%", "75%", "80%", "90%", "95%", "98%", "99%", "99.9%", "100% (slowest)" })
            Assert.Contains($">{rung}<", html);
        Assert.Contains("id=\"connection-times\"", html);
        Assert.Contains("id=\"cold-warm\"", html);
        Assert.Contains("\"v1\"", html); // the ETag in the caching evidence table
        Assert.Contains("chart.umd.min.js", html);
        Assert.Contains(">completed<", html);
    }

    [Fact]
    public async Task AVariantRowOfTheFormAddsInterleavedVariantsAndTheEditorShowsThemAgain()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = HttpFields(target.Url("/ok").ToString(), "30");
        fields["Http.FirstVariantName"] = "small";
        fields["Http.Variants[0].Name"] = "big";
        fields["Http.Variants[0].Url"] = target.Url("/ok?size=4096").ToString();
        fields["Http.Variants[1].Url"] = ""; // an untouched row adds nothing
        fields["Http.InterleaveBlock"] = "1";
        var response = await FormPost.SubmitAsync(client, "/runs/new", fields);

        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        var id = long.Parse(response.Headers.Location!.OriginalString["/runs/".Length..]);
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        var variants = run.GetProperty("parameters").GetProperty("variants");
        Assert.Equal(2, variants.GetArrayLength());
        Assert.Equal(("small", "big"), (variants[0].GetProperty("name").GetString(), variants[1].GetProperty("name").GetString()));
        Assert.Equal(JsonValueKind.Null, variants[0].GetProperty("url").ValueKind); // the first variant is the fields above
        Assert.Equal(["small", "big"], run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));

        // A variant's field that is wrong comes back beside the variants, saying which.
        fields["Http.Variants[0].Url"] = "ftp://nowhere";
        var bad = WebUtility.HtmlDecode(await (await FormPost.SubmitAsync(client, "/runs/new", fields)).Content.ReadAsStringAsync());
        Assert.Matches("data-valmsg-for=\"Http.Variants\"[^>]*>variants\\[1\\]\\.url: Enter an absolute", bad);
    }

    [Fact]
    public async Task TheRunsListFiltersByStatusNewestFirst()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Embedded"] = "false" });
        var client = app.CreateClient();
        for (var i = 0; i < 3; i++)
            await client.PostAsJsonAsync("/api/runs", new { kind = "http", url = $"http://127.0.0.1:1/run-{i}", requests = 1 });

        var all = await client.GetStringAsync("/");
        var queued = await client.GetStringAsync("/?status=Queued");
        var failed = await client.GetStringAsync("/?status=Failed");

        var (newest, oldest) = (all.IndexOf("run-2", StringComparison.Ordinal), all.IndexOf("run-0", StringComparison.Ordinal));
        Assert.True(newest >= 0 && oldest > newest, $"run-2 at {newest}, run-0 at {oldest}");
        Assert.Contains("run-1", queued);
        Assert.DoesNotContain("run-1", failed);
    }

    [Fact]
    public async Task ARunLeftRunningByACrashIsInterruptedWhenTheDashboardStarts()
    {
        await using var app = new DashboardFactory();
        var options = new DbContextOptionsBuilder<BenchDbContext>().UseSqlite($"Data Source={app.DatabasePath}").Options;
        long id;
        await using (var db = new BenchDbContext(options))
        {
            await db.Database.MigrateAsync();
            var orphan = new Run
            {
                Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Running, QueuedUtcMs = 1, StartedUtcMs = 1, HeartbeatUtcMs = 1, RunnerName = "gone/1",
            };
            db.Runs.Add(orphan);
            await db.SaveChangesAsync();
            id = orphan.Id;
        }

        var run = await DashboardFactory.WaitForEndAsync(app.CreateClient(), id);

        Assert.Equal("interrupted", run.GetProperty("status").GetString());
    }

    [Fact]
    public async Task ABenchmarkWithABadScheduleIsNotSaved()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = HttpFields("http://127.0.0.1:1/", "10");
        (fields["Name"], fields["CronSchedule"], fields["Enabled"]) = ("nightly", "every night", "true");
        var response = await FormPost.SubmitAsync(client, "/benchmarks/edit", fields);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("Enter 5 fields (minute hour day month weekday) or 6 with seconds first", await response.Content.ReadAsStringAsync());
        Assert.DoesNotContain("nightly", await client.GetStringAsync("/benchmarks"));
    }

    [Fact]
    public async Task ASavedBenchmarkCanBeRunNow()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var fields = HttpFields(target.Url("/ok").ToString(), "10");
        (fields["Name"], fields["CronSchedule"], fields["Enabled"]) = ("ok endpoint", "", "true");
        var saved = await FormPost.SubmitAsync(client, "/benchmarks/edit", fields);
        Assert.Equal(HttpStatusCode.Redirect, saved.StatusCode);
        var list = await client.GetStringAsync("/benchmarks");
        var benchmarkId = System.Text.RegularExpressions.Regex.Match(list, "/benchmarks/edit/(\\d+)").Groups[1].Value;

        var run = await FormPost.SubmitAsync(client, $"/benchmarks?handler=Run&id={benchmarkId}", []);

        Assert.Equal(HttpStatusCode.Redirect, run.StatusCode);
        var id = long.Parse(run.Headers.Location!.OriginalString["/runs/".Length..]);
        var finished = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("ok endpoint", finished.GetProperty("benchmarkName").GetString());
        Assert.Equal(10, finished.GetProperty("stats").GetProperty("count").GetInt32());
    }

    [Theory]
    [InlineData("", "", "Enter a name of 1 to 200 characters.")]
    [InlineData("  ", "", "Enter a name of 1 to 200 characters.")]
    [InlineData("every zero minutes", "*/0 * * * *", "Minutes: Value must be a number between 1 and 59")]
    public async Task TheEditorRefusesAnEmptyNameAndAZeroStepWithAMessageAndStoresNothing(string name, string cron, string message)
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var fields = HttpFields("http://127.0.0.1:1/", "5");
        fields["Name"] = name;
        fields["CronSchedule"] = cron;
        fields["kind"] = "http";

        var response = await FormPost.SubmitAsync(client, "/benchmarks/edit", fields);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains(message, await response.Content.ReadAsStringAsync());
        Assert.DoesNotContain("/benchmarks/edit/", await client.GetStringAsync("/benchmarks"));
    }

    [Fact]
    public async Task AnUnknownTimeZoneIsA400BesideTheFieldAndAKnownOneIsStoredAndShown()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var fields = HttpFields("http://127.0.0.1:1/", "5");
        (fields["Name"], fields["CronSchedule"], fields["TimeZone"], fields["kind"]) = ("nightly in Berlin", "30 2 * * *", "Europe/Atlantis", "http");

        var refused = await FormPost.SubmitAsync(client, "/benchmarks/edit", fields);

        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        var page = await refused.Content.ReadAsStringAsync();
        Assert.Matches("data-valmsg-for=\"TimeZone\"[^>]*>Unknown time zone &#x27;Europe/Atlantis&#x27;: enter an IANA name", page);
        Assert.DoesNotContain("/benchmarks/edit/", await client.GetStringAsync("/benchmarks"));

        fields["TimeZone"] = "Europe/Berlin";
        Assert.Equal(HttpStatusCode.Redirect, (await FormPost.SubmitAsync(client, "/benchmarks/edit", fields)).StatusCode);
        var list = await client.GetStringAsync("/benchmarks");
        Assert.Contains("every day at 02:30 (Europe/Berlin)", list);
        Assert.Contains("<code>30 2 * * *</code>", list);
        var id = System.Text.RegularExpressions.Regex.Match(list, "/benchmarks/edit/(\\d+)").Groups[1].Value;
        Assert.Contains("value=\"Europe/Berlin\"", await client.GetStringAsync($"/benchmarks/edit/{id}"));
    }
}
