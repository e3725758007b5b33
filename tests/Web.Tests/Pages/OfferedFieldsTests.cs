using System.Net;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Stores;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The forms offer only the fields the chosen kind and model accept, as the server renders them (the browser tests cover the script).</summary>
public sealed class OfferedFieldsTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static Dictionary<string, string> HttpFields(string name) => new()
    {
        ["kind"] = "http", ["Name"] = name, ["Enabled"] = "true", ["Http.Url"] = "http://127.0.0.1:1/", ["Http.Method"] = "GET",
        ["Http.Mode"] = "requests", ["Http.Requests"] = "5", ["Http.Concurrency"] = "1", ["Http.TimeoutMs"] = "1000", ["Http.WarmupRequests"] = "0",
    };

    [Fact]
    public async Task TheRepeatsChoicesPerVariantAppearOnlyWhereTheApiAcceptsThem()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        // Kinds without variant rows never offer them.
        foreach (var kind in new[] { "fileSystem", "table" })
        {
            var page = await client.GetStringAsync($"/runs/new?kind={kind}");
            Assert.DoesNotContain("Repeat.SeparateRuns", page);
            Assert.DoesNotContain("Compare each setting by", page);
            Assert.Contains("name=\"Repeat.Times\"", page); // repeating itself is still offered
        }

        // HTTP without a variant: there, but hidden and disabled (nothing of it is sent).
        var plain = await client.GetStringAsync("/runs/new?kind=http");
        Assert.Matches("<fieldset class=\"plain\" id=\"variant-repeat-fields\" hidden=\"hidden\" disabled=\"disabled\">", plain);
        Assert.Contains("hidden=\"hidden\" disabled=\"disabled\"", await client.GetStringAsync("/runs/new?kind=http&Repeat.HasVariants=true")); // not from the address
        var withVariant = await client.GetStringAsync("/runs/new?kind=http&Http.Variants%5B0%5D.Name=B");
        Assert.Contains("<fieldset class=\"plain\" id=\"variant-repeat-fields\">", withVariant);

        // The rule is the API's: without variants separate runs are refused; with one filled row they are queued.
        var fields = HttpFields("");
        fields.Remove("Name");
        (fields["Repeat.Times"], fields["Repeat.SeparateRuns"]) = ("2", "true");
        var refused = await FormPost.SubmitAsync(client, "/runs/new?kind=http", fields);
        Assert.Equal(HttpStatusCode.OK, refused.StatusCode);
        Assert.Contains("need variants", await refused.Content.ReadAsStringAsync());
        fields["Http.Variants[0].Name"] = "B";
        var queued = await FormPost.SubmitAsync(client, "/runs/new?kind=http", fields);
        Assert.Equal(HttpStatusCode.Redirect, queued.StatusCode);
        Assert.StartsWith("/compare?items=", queued.Headers.Location!.OriginalString);
    }

    [Fact]
    public async Task TheFileSystemHintNamesOnlyRootsThisDashboardHas()
    {
        await using var app = new DashboardFactory();
        var page = WebUtility.HtmlDecode(await app.CreateClient().GetStringAsync("/runs/new?kind=fileSystem"));

        var roots = app.Services.GetRequiredService<BenchDashboard.Core.Kinds.FileSystem.FileSystemRoots>().Named.Keys.ToList();
        Assert.DoesNotContain("home", roots); // not App Service
        Assert.DoesNotContain("<code>home</code>", page);
        var hint = Regex.Match(page, "<span id=\"roots-hint\">(.*?)</span>").Groups[1].Value;
        Assert.Contains("<code>temp</code>", hint);
        Assert.Contains("<code>content</code>", hint);
        foreach (Match named in Regex.Matches(hint, "<code>([^<]+)</code>")) Assert.Contains(named.Groups[1].Value, roots);
    }

    [Fact]
    public async Task TheLatencyBasisIsExplainedForTheOpenModelAlone()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        Assert.Matches("id=\"latency-basis-field\" data-shown-when=\"Http.Model=open\" hidden=\"hidden\"", await client.GetStringAsync("/benchmarks/edit?kind=http"));
        Assert.DoesNotContain("latency-basis-field", await client.GetStringAsync("/benchmarks/edit?kind=fileSystem"));

        var closed = HttpFields("closed one");
        var open = HttpFields("open one");
        (open["Http.Model"], open["Http.Rate"]) = ("open", "20");
        foreach (var form in new[] { closed, open })
            Assert.Equal(HttpStatusCode.Redirect, (await FormPost.SubmitAsync(client, "/benchmarks/edit", form)).StatusCode);
        await using var scope = app.Services.CreateAsyncScope();
        var saved = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().ListAsync(default);

        var closedEditor = await client.GetStringAsync($"/benchmarks/edit/{saved.Single(b => b.Name == "closed one").Id}");
        Assert.Matches("id=\"latency-basis-field\"[^>]* hidden=\"hidden\"", closedEditor);
        var openEditor = await client.GetStringAsync($"/benchmarks/edit/{saved.Single(b => b.Name == "open one").Id}");
        Assert.Contains("<div class=\"field\" id=\"latency-basis-field\" data-shown-when=\"Http.Model=open\">", openEditor);
    }

    [Fact]
    public async Task WithoutASigningKeyTheWebhookFieldIsOffSaysHowToSetOneAndASaveKeepsTheStoredAddresses()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        int id;
        await using (var scope = app.Services.CreateAsyncScope())
        {
            var (saved, errors) = await scope.ServiceProvider.GetRequiredService<BenchmarkStore>().SaveAsync(null, "hooked",
                new HttpParameters { Url = "http://127.0.0.1:1/", Requests = 5 }, null, true, default, webhookUrls: ["http://127.0.0.1:9/hook"]);
            Assert.Empty(errors);
            id = saved!.Id;
        }

        var editor = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/edit/{id}"));
        Assert.Matches("<textarea[^>]*disabled[^>]*name=\"WebhookUrls\"|<textarea[^>]*name=\"WebhookUrls\"[^>]*disabled", editor);
        Assert.Contains("Webhooks__SigningKey", editor);

        var fields = HttpFields("hooked, renamed"); // as a browser posts it: a disabled field is not sent
        Assert.Equal(HttpStatusCode.Redirect, (await FormPost.SubmitAsync(client, $"/benchmarks/edit/{id}", fields)).StatusCode);
        await using var check = app.Services.CreateAsyncScope();
        var benchmark = await check.ServiceProvider.GetRequiredService<BenchmarkStore>().FindAsync(id, default);
        Assert.Equal("hooked, renamed", benchmark!.Name);
        Assert.Equal(["http://127.0.0.1:9/hook"], benchmark.WebhookUrls);
    }

    [Fact]
    public async Task ASavedScheduleIsConfirmedAndListedInWordsWithItsNextRunInItsZone()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var fields = HttpFields("nightly in Berlin");
        (fields["CronSchedule"], fields["TimeZone"]) = ("30 2 * * *", "Europe/Berlin");
        var before = DateTimeOffset.UtcNow;

        Assert.Equal(HttpStatusCode.Redirect, (await FormPost.SubmitAsync(client, "/benchmarks/edit", fields)).StatusCode);
        var list = WebUtility.HtmlDecode(await client.GetStringAsync("/benchmarks"));

        // The next 02:30 on Berlin's clock after the save, worked out here from the zone alone.
        var zone = TimeZoneInfo.FindSystemTimeZoneById("Europe/Berlin");
        var local = TimeZoneInfo.ConvertTime(before, zone).DateTime;
        var slot = local.Date.AddHours(2).AddMinutes(30);
        if (slot <= local) slot = slot.AddDays(1);
        var utc = new DateTimeOffset(slot, zone.GetUtcOffset(slot)).UtcDateTime;
        var next = $"{slot:yyyy-MM-dd} 02:30 Europe/Berlin ({utc:HH:mm} UTC)";

        Assert.Contains($"<p id=\"benchmark-saved\" role=\"status\">Saved 'nightly in Berlin', scheduled every day at 02:30 (Europe/Berlin); next run {next}.</p>", list);
        Assert.Contains("every day at 02:30 (Europe/Berlin)<div class=\"sub\"><code>30 2 * * *</code></div>", list);
        Assert.Contains($"<td class=\"schedule-next\">{next}</td>", list);
        Assert.Equal("none yet", Regex.Match(list, "<td class=\"schedule-last\">(.*?)</td>", RegexOptions.Singleline).Groups[1].Value);
        Assert.DoesNotContain("benchmark-saved", await client.GetStringAsync("/benchmarks")); // said once

        // Run now: the list's last run is that run, at its time in the schedule's zone.
        var benchmarkId = Regex.Match(list, "/benchmarks/edit/(\\d+)").Groups[1].Value;
        var ran = await FormPost.SubmitAsync(client, $"/benchmarks?handler=Run&id={benchmarkId}", []);
        var runId = ran.Headers.Location!.OriginalString["/runs/".Length..];
        var last = Regex.Match(await client.GetStringAsync("/benchmarks"), "<td class=\"schedule-last\">(.*?)</td>", RegexOptions.Singleline).Groups[1].Value;
        Assert.Matches($"^<a href=\"/runs/{runId}\">#{runId}</a> \\d{{4}}-\\d\\d-\\d\\d \\d\\d:\\d\\d Europe/Berlin \\(\\d\\d:\\d\\d UTC\\)$", last);
    }

    [Fact]
    public async Task AgentsWithNoneLinkedShowsTheCommandToLinkOneWithThisDashboardsAddress()
    {
        await using var app = new DashboardFactory(new() { ["Agents:Keys:eu1"] = "a-secret-agent-key" });
        var page = WebUtility.HtmlDecode(await app.CreateClient().GetStringAsync("/agents"));

        var command = Regex.Match(page, "<code id=\"agent-command\">(.*?)</code>", RegexOptions.Singleline).Groups[1].Value;
        Assert.Equal("Runner__Mode=agent Runner__Coordinator=http://localhost Runner__AgentName=eu1 Runner__AgentKey=<its key> \\\n  dotnet run --project src/Runner -c Release", command);
        Assert.Contains("Keys are set here for eu1", page);
        Assert.DoesNotContain("a-secret-agent-key", page);

        await using var bare = new DashboardFactory();
        var first = WebUtility.HtmlDecode(await bare.CreateClient().GetStringAsync("/agents"));
        Assert.Contains("<code>Agents__Keys__agent1</code>", first);
        Assert.Contains("Runner__AgentName=agent1", first);
    }

    [Fact]
    public async Task PagesSayTheirWordsPlainlyAndLeaveTheMethodsToTheGlossary()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 100, keyCount = 20 });
        await DashboardFactory.WaitForEndAsync(client, id);

        var list = WebUtility.HtmlDecode(await client.GetStringAsync("/"));
        Assert.DoesNotContain("WEBSITE_DYNAMIC_CACHE", list);
        Assert.Contains("placeholder=\"e.g. machineName\"", list);
        Assert.Contains(">Wall time</th>", list);
        Assert.DoesNotContain(">Duration</th>", list);

        var run = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        Assert.Contains("href=\"/glossary#percentile-plot\"", run);
        Assert.Contains("id=\"measured-time\"", run);
        Assert.Contains("id=\"wall-time\"", run);
        foreach (var method in new[] { "MAD", "1.4826", "log₁₀", "HdrHistogram", "seed 0", "Seed 0" })
            Assert.DoesNotContain(method, Regex.Replace(run, "<(script|style)[^>]*>.*?</\\1>|<[^>]+>", " ", RegexOptions.Singleline));

        var glossary = WebUtility.HtmlDecode(await client.GetStringAsync("/glossary"));
        Assert.Contains("id=\"percentile-plot\"", glossary);
        Assert.Contains("−log₁₀(1 − p)", glossary);
        Assert.Contains("1.4826 × MAD", glossary);
    }
}
