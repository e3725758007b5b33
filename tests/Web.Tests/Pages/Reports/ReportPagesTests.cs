using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages.Reports;

/// <summary>
/// Reports as HTTP sees them: a run's and a comparison's page as one file to save, everything inline;
/// a clear page, never a download, when there is nothing to report; names and secrets exactly as on the pages.
/// </summary>
public partial class ReportPagesTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    const string Hostile = "</script><img src=x onerror=alert(1)>";

    [Fact]
    public async Task ARunsReportIsItsPageAsOneFileToSaveWithEveryScriptStyleAndIconInline()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var id = await DashboardFactory.CreateRunAsync(client, new
        {
            kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 40,
            variants = new object[] { new { name = "fast" }, new { name = "slow", url = target.Url("/delay?ms=3").ToString() } },
        });
        await DashboardFactory.WaitForEndAsync(client, id);

        var page = await client.GetStringAsync($"/runs/{id}");
        Assert.Contains($"href=\"/runs/{id}/report\" id=\"download-report\"", page);
        var response = await client.GetAsync($"/runs/{id}/report?series=slow");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("attachment", response.Content.Headers.ContentDisposition?.DispositionType);
        Assert.Equal($"run-{id}-report.html", response.Content.Headers.ContentDisposition?.FileName);
        var html = await response.Content.ReadAsStringAsync();

        // The page's own content, for the variant the query picked: its summary, ladder, windows, parameters, data.
        foreach (var part in new[] { $"Run #{id}", "id=\"ladder\"", "id=\"time-windows\"", "id=\"environment\"", "id=\"parameters\"", "id=\"chart-data\"", "(slow)" })
            Assert.Contains(part, html);
        // Nothing to fetch: no script or style sheet by address, the icon as data, and a policy that allows no fetch.
        Assert.DoesNotMatch("<script[^>]+src=", html);
        Assert.DoesNotMatch("<link[^>]+rel=\"stylesheet\"", html);
        Assert.Matches("<link rel=\"icon\" href=\"data:image/svg", html);
        Assert.Contains("Chart.instances", html); // report.js, inline with Chart.js itself
        Assert.Matches("Content-Security-Policy\" content=\"default-src &#x27;none&#x27;; script-src &#x27;sha256-", html);
        // No navigation and no forms: the actions need the dashboard.
        Assert.DoesNotContain("<nav", html);
        Assert.DoesNotContain("<form", html);
        Assert.DoesNotContain("download-report", html);
    }

    [Theory]
    [InlineData("cache", "{\"kind\":\"cache\",\"requests\":40,\"keyCount\":5,\"phases\":[\"write\",\"read-same\",\"read-miss\"]}")]
    [InlineData("file system", "{\"kind\":\"fileSystem\",\"directories\":[\"temp\"],\"fileCount\":20,\"fileBytes\":256,\"filesPerDirectory\":10,\"largeFileMiB\":1}")]
    public async Task AReportOfAnotherKindsRunCarriesItsAnswerWithEveryAssetInline(string kind, string body)
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var created = await client.PostAsync("/api/runs", new StringContent(body, System.Text.Encoding.UTF8, "application/json"));
        Assert.True(created.IsSuccessStatusCode, $"{kind}: {await created.Content.ReadAsStringAsync()}");
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
        await DashboardFactory.WaitForEndAsync(client, id);

        var page = await client.GetStringAsync($"/runs/{id}");
        var response = await client.GetAsync($"/runs/{id}/report");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var html = await response.Content.ReadAsStringAsync();
        // The kind's answer at the top, as on its page.
        var answer = Regex.Match(page, "<section[^>]*class=\"answer[^\"]*\"[^>]*>.*?</section>", RegexOptions.Singleline).Value;
        Assert.False(string.IsNullOrEmpty(answer), $"{kind}: no answer on the page");
        Assert.Contains(answer, html);
        Assert.DoesNotMatch("<script[^>]+src=|<link[^>]+rel=\"stylesheet\"|<img", html);
    }

    [Fact]
    public async Task ARunsReportIsBuiltFromItsDigestNeverFromItsSamples()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 50 });
        await DashboardFactory.WaitForEndAsync(client, id);
        using var scope = app.Services.CreateScope();
        var db = scope.ServiceProvider.GetRequiredService<Core.Data.BenchDbContext>();
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (!await db.Digests.AnyAsync(d => d.RunId == id))
        {
            Assert.True(DateTime.UtcNow < deadline, "no digest after 60 s");
            await Task.Delay(50);
        }
        static string Ladder(string html) => Regex.Match(html, "<table id=\"ladder\">.*?</table>", RegexOptions.Singleline).Value;
        var before = Ladder(await client.GetStringAsync($"/runs/{id}/report"));

        // With the samples gone, the report is the same: like its page, it reads the digest a run keeps once it has ended.
        Assert.Equal(50, (await RunSamples.ListAsync(db, id)).Count(s => !s.IsWarmup));
        await db.SampleBlocks.Where(b => b.RunId == id).ExecuteDeleteAsync();
        await db.Samples.Where(s => s.RunId == id).ExecuteDeleteAsync();
        Assert.Equal(0, await RunSamples.CountAsync(db, id));
        var after = await client.GetAsync($"/runs/{id}/report");
        Assert.Equal(HttpStatusCode.OK, after.StatusCode);
        Assert.Contains("<td class=\"num\">99%</td>", before);
        Assert.Equal(before, Ladder(await after.Content.ReadAsStringAsync()));
    }

    [Fact]
    public async Task EachInlineScriptIsAllowedByItsHashInTheReportsOwnPolicy()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 20 });
        await DashboardFactory.WaitForEndAsync(client, id);

        var html = await client.GetStringAsync($"/runs/{id}/report");
        var policy = WebUtility.HtmlDecode(Regex.Match(html, "http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\"").Groups[1].Value);
        var scripts = Regex.Matches(html, "<script>(.*?)</script>", RegexOptions.Singleline).Select(m => m.Groups[1].Value).ToList();
        Assert.True(scripts.Count >= 4, $"{scripts.Count} inline scripts"); // Chart.js, units, palette, the page's, report.js
        foreach (var script in scripts)
        {
            var hash = Convert.ToBase64String(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(script)));
            Assert.Contains($"'sha256-{hash}'", policy);
        }
    }

    [Fact]
    public async Task AComparisonsReportIsItsPageAsOneFileNamedForItsItems()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var first = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 30 });
        var second = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=2").ToString(), requests = 30 });
        await DashboardFactory.WaitForEndAsync(client, first);
        await DashboardFactory.WaitForEndAsync(client, second);

        Assert.Contains($"href=\"/compare/report?items={first},{second}\" id=\"download-report\"", await client.GetStringAsync($"/compare?items={first},{second}"));
        var response = await client.GetAsync($"/compare/report?items={first},{second}&baseline={second}&margin=2");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal($"compare-{first}-{second}-report.html", response.Content.Headers.ContentDisposition?.FileName);
        var html = await response.Content.ReadAsStringAsync();
        foreach (var part in new[] { "id=\"comparison\"", "id=\"verdicts\"", "id=\"differences\"", "id=\"cdf-chart\"", "id=\"chart-data\"", "±2 %" })
            Assert.Contains(part, WebUtility.HtmlDecode(html));
        Assert.Contains($"<strong id=\"baseline\">#{second}", html);
        // Each run's exact parameters and environment, open in the report (folded on the page).
        Assert.Contains("<details id=\"compared-runs\" open=\"open\">", html);
        Assert.Contains("<details id=\"compared-runs\">", await client.GetStringAsync($"/compare?items={first},{second}"));
        foreach (var id in new[] { first, second })
        {
            Assert.Matches($"<table class=\"environment\" data-run=\"{id}\">\\s*<tr><th>Machine</th>", html);
            Assert.Contains($"<pre class=\"parameters\" data-run=\"{id}\">", html);
        }
        Assert.DoesNotMatch("<script[^>]+src=", html);
        Assert.DoesNotContain("<form", html);

        // The picker's "group repeats" leads to the grouped address: a report's to the grouped report.
        var grouped = await client.GetAsync($"/compare/report?items={first},{second}&group=true");
        Assert.Equal(HttpStatusCode.Redirect, grouped.StatusCode);
        Assert.StartsWith("/compare/report?items=", grouped.Headers.Location!.OriginalString);
    }

    [Fact]
    public async Task NoRunIsA404PageAnUnfinishedRunA409PageAndNeitherIsADownload()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var missing = await client.GetAsync("/runs/999/report");
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Null(missing.Content.Headers.ContentDisposition);
        Assert.Contains("Run #999 does not exist", await missing.Content.ReadAsStringAsync());

        var running = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=50").ToString(), durationSeconds = 30 });
        var early = await client.GetAsync($"/runs/{running}/report");
        Assert.Equal(HttpStatusCode.Conflict, early.StatusCode);
        Assert.Null(early.Content.Headers.ContentDisposition);
        var text = await early.Content.ReadAsStringAsync();
        Assert.Contains($"Run #{running} has not finished", text);
        Assert.Matches("The run is (queued|running): its report can be saved once it has ended", text);

        // A comparison waiting for that run is not finished either; one that cannot be made says why, naming the field.
        var done = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = target.Url("/delay?ms=1").ToString(), requests = 5 });
        var waiting = await client.GetAsync($"/compare/report?items={done},{running}");
        Assert.Equal(HttpStatusCode.Conflict, waiting.StatusCode);
        Assert.Contains($"#{running} (", await waiting.Content.ReadAsStringAsync());
        (await client.PostAsync($"/api/runs/{running}/cancel", null)).EnsureSuccessStatusCode();
        await DashboardFactory.WaitForEndAsync(client, running);
        await DashboardFactory.WaitForEndAsync(client, done);
        foreach (var (path, message) in new[]
                 {
                     ("/compare/report", "items: name two or more finished runs"), ($"/compare/report?items={done},777", "items: There is no run 777."),
                     ($"/compare/report?items={done},{running}&margin=lots", "margin: "),
                 })
        {
            var refused = await client.GetAsync(path);
            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
            Assert.Null(refused.Content.Headers.ContentDisposition);
            Assert.Contains(message, WebUtility.HtmlDecode(await refused.Content.ReadAsStringAsync()));
        }

        // The report's address answers reading only: the page's actions (delete, run again) are not reachable through it.
        var post = await client.PostAsync($"/runs/{done}/report?handler=Delete", new FormUrlEncodedContent(new Dictionary<string, string> { ["confirm"] = "true" }));
        Assert.Equal(HttpStatusCode.MethodNotAllowed, post.StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync($"/api/runs/{done}")).StatusCode);
    }

    [Fact]
    public async Task HostileNamesUrlsAndHeaderValuesAreEscapedInTheReportAsOnThePage()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var created = await client.PostAsJsonAsync("/api/benchmarks", new
        {
            name = "bench " + Hostile, kind = "http",
            parameters = new
            {
                url = target.Url("/delay?ms=1&q=" + Uri.EscapeDataString(Hostile)).ToString(), requests = 20,
                headers = new Dictionary<string, string> { ["X-Note"] = Hostile },
                variants = new object[] { new { name = "a" }, new { name = "b", headers = new Dictionary<string, string> { ["X-Other"] = "<!--<script>" } } },
            },
        });
        created.EnsureSuccessStatusCode();
        var benchmark = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();
        var ids = new List<long>();
        for (var i = 0; i < 2; i++)
        {
            var run = await client.PostAsync($"/api/benchmarks/{benchmark}/runs", null);
            run.EnsureSuccessStatusCode();
            ids.Add((await run.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64());
            await DashboardFactory.WaitForEndAsync(client, ids[^1]);
        }

        foreach (var path in new[] { $"/runs/{ids[0]}/report", $"/compare/report?items={ids[0]},{ids[1]}", $"/compare/report?items={ids[0]}/a,{ids[1]}/b" })
        {
            var html = await client.GetStringAsync(path);
            if (path.StartsWith("/runs/", StringComparison.Ordinal))
            {
                Assert.Contains("bench &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;", html); // shown, as text
                Assert.Contains("&quot;X-Note&quot;: &quot;", html); // an ordinary header's value is shown, as text (only credentials are fingerprinted)
            }
            Assert.DoesNotContain("<img", html);
            Assert.DoesNotContain("<!--<script>", html);
            // Only the report's own script elements: the data block and the inlined files, each closed once.
            var opened = Regex.Matches(html, "<script", RegexOptions.IgnoreCase).Count;
            var closed = Regex.Matches(html, "</script", RegexOptions.IgnoreCase).Count;
            Assert.Equal(opened, closed);
            Assert.Single(Regex.Matches(html, "<script type=\"application/json\""));
            Assert.Equal(opened - 1, Regex.Matches(html, "<script>").Count);
        }
    }

    [Fact]
    public async Task EveryReportShowsSecretsAsFingerprintsTheAdministratorsToo()
    {
        const string key = "report-key";
        await using var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = key });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", key);
        var body = new
        {
            kind = "http", url = "http://user:pw-secret@127.0.0.1:1/x?apikey=q-secret&page=2", requests = 1, timeoutMs = 500,
            headers = new Dictionary<string, string> { ["Authorization"] = "Bearer h-secret" },
        };
        var first = await DashboardFactory.CreateRunAsync(admin, body);
        var second = await DashboardFactory.CreateRunAsync(admin, body with { url = "http://user:pw-secret@127.0.0.1:1/x?apikey=q-secret-2&page=2" });
        await DashboardFactory.WaitForEndAsync(admin, first);
        await DashboardFactory.WaitForEndAsync(admin, second);

        // A report is a file made to be sent on: nobody's shows a secret, though the administrator's page does.
        var anonymous = app.CreateClient();
        foreach (var (page, report) in new[] { ($"/runs/{first}", $"/runs/{first}/report"), ($"/compare?items={first},{second}", $"/compare/report?items={first},{second}") })
        {
            foreach (var reader in new[] { anonymous, admin })
            {
                var response = await reader.GetAsync(report);
                Assert.Equal(HttpStatusCode.OK, response.StatusCode);
                var text = WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync());
                foreach (var secret in new[] { "pw-secret", "q-secret", "h-secret" }) Assert.DoesNotContain(secret, text);
                Assert.Contains("(hidden, ", text);
            }
            var full = WebUtility.HtmlDecode(await admin.GetStringAsync(page));
            Assert.Contains("q-secret", full);
            Assert.Contains("h-secret", full);
        }
    }
}
