using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>
/// The load fields every kind's form shares (_LoadModelFields.cshtml): only the fields of the mode and model
/// chosen apply (the script hides the others; the server ignores them), every field has a label, and a count
/// says what it stands for with variants.
/// </summary>
public class LoadFieldsFormTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static Dictionary<string, string> Http(string url) => new()
    {
        ["Http.Url"] = url, ["Http.Method"] = "GET", ["Http.Concurrency"] = "1", ["Http.TimeoutMs"] = "1000", ["Http.WarmupRequests"] = "0",
    };

    static async Task<JsonElement> QueuedParametersAsync(HttpClient client, HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        var id = long.Parse(response.Headers.Location!.OriginalString["/runs/".Length..]);
        var run = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}?includeStats=false");
        return run.GetProperty("parameters");
    }

    [Theory]
    [InlineData("http", "Http")]
    [InlineData("cache", "Cache")]
    [InlineData("table", "Table")]
    public async Task EveryLoadKindMarksTheFieldsOfEachModeAndModelForTheScriptToHide(string kind, string prefix)
    {
        await using var app = new DashboardFactory();
        var html = await app.CreateClient().GetStringAsync($"/runs/new?kind={kind}");

        Assert.Matches($"data-shown-when=\"{prefix}.Mode=requests\">\\s*<label for=\"{prefix}_Requests\"", html);
        Assert.Matches($"data-shown-when=\"{prefix}.Mode=duration\">\\s*<label for=\"{prefix}_DurationSeconds\"", html);
        Assert.Matches($"data-shown-when=\"{prefix}.Model=open\">\\s*<label for=\"{prefix}_Rate\"", html);
        Assert.Matches($"data-shown-when=\"{prefix}.Model=open\">\\s*<label for=\"{prefix}_Stages\"", html);
        Assert.Contains("/js/load-fields.js", html);
        // Without script every field shows, so each says when it applies.
        Assert.Contains("(open model only)", html);
        // One partial: the load fields appear once, not again in the kind's own fields.
        Assert.Single(Regex.Matches(html, $"name=\"{prefix}.Requests\""));
        Assert.Single(Regex.Matches(html, $"name=\"{prefix}.TimeoutMs\""));
    }

    [Fact]
    public async Task TheAgentsFieldShowsOnlyOnKindsThatCanBeSpreadOverAgents()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();

        Assert.Contains("name=\"Agents\"", await client.GetStringAsync("/runs/new?kind=http"));
        foreach (var kind in new[] { "table", "cache", "fileSystem" })
        {
            var html = await client.GetStringAsync($"/runs/new?kind={kind}");
            Assert.DoesNotContain("name=\"Agents\"", html);
            Assert.DoesNotContain("HTTP only", html);
        }
        var editor = await client.GetStringAsync("/benchmarks/edit?kind=table");
        Assert.DoesNotContain("name=\"Agents\"", editor);
        Assert.DoesNotContain("HTTP only", editor);
    }

    [Fact]
    public async Task WithADurationChosenTheServerIgnoresTheCountWhateverIsInIt()
    {
        await using var target = await TestSupport.KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        // A browser without script posts the hidden count too, here with nonsense in it, and a rate in the closed model.
        var fields = Http(target.Url("/ok").ToString());
        (fields["Http.Mode"], fields["Http.Requests"], fields["Http.DurationSeconds"]) = ("duration", "lots", "1");
        (fields["Http.Model"], fields["Http.Rate"], fields["Http.Stages"]) = ("closed", "not a number", "not a stage");
        var parameters = await QueuedParametersAsync(client, await FormPost.SubmitAsync(client, "/runs/new", fields));

        Assert.Equal(JsonValueKind.Null, parameters.GetProperty("requests").ValueKind);
        Assert.Equal(1, parameters.GetProperty("durationSeconds").GetInt32());
        Assert.Equal("closed", parameters.GetProperty("model").GetString());
        Assert.Equal(JsonValueKind.Null, parameters.GetProperty("rate").ValueKind);
        Assert.Equal(JsonValueKind.Null, parameters.GetProperty("stages").ValueKind);
    }

    [Fact]
    public async Task WithACountChosenTheDurationIsIgnoredAndANonsenseCountIsStillAnError()
    {
        await using var target = await TestSupport.KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = Http(target.Url("/ok").ToString());
        (fields["Http.Mode"], fields["Http.Requests"], fields["Http.DurationSeconds"]) = ("requests", "5", "soon");
        var parameters = await QueuedParametersAsync(client, await FormPost.SubmitAsync(client, "/runs/new", fields));
        Assert.Equal(5, parameters.GetProperty("requests").GetInt32());
        Assert.Equal(JsonValueKind.Null, parameters.GetProperty("durationSeconds").ValueKind);

        // The field that applies is checked as ever: beside it, nothing queued.
        fields["Http.Requests"] = "lots";
        var refused = await FormPost.SubmitAsync(client, "/runs/new", fields);
        Assert.Equal(HttpStatusCode.OK, refused.StatusCode);
        Assert.Matches("data-valmsg-for=\"Http.Requests\"[^>]*>[^<]*lots", WebUtility.HtmlDecode(await refused.Content.ReadAsStringAsync()));
        Assert.Equal(1, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Fact]
    public async Task AnOpenRunKeepsItsRateAndStages()
    {
        await using var target = await TestSupport.KestrelTarget.StartAsync();
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = Http(target.Url("/ok").ToString());
        (fields["Http.Mode"], fields["Http.Requests"], fields["Http.Model"], fields["Http.Rate"], fields["Http.Stages"]) = ("requests", "20", "open", "200", "");
        var parameters = await QueuedParametersAsync(client, await FormPost.SubmitAsync(client, "/runs/new", fields));

        Assert.Equal("open", parameters.GetProperty("model").GetString());
        Assert.Equal(200, parameters.GetProperty("rate").GetDouble());
        Assert.Equal(20, parameters.GetProperty("requests").GetInt32());
    }

    [Theory]
    [InlineData("/runs/new?kind=http&Http.Requests=50&Http.Variants[0].Name=B&Http.Variants[1].Name=C", "per variant: 3 variants × 50 = 150 requests in all.")]
    [InlineData("/runs/new?kind=http&Http.Requests=50", "50 requests in all.")]
    [InlineData("/runs/new?kind=table&Table.Requests=10", "per variant: 8 variants × 10 = 80 requests in all.")]
    [InlineData("/runs/new?kind=cache&Cache.Requests=100&Cache.Variants[0].Name=B", "per phase and variant: 4 phases × 2 variants × 100 = 800 operations in all.")]
    public async Task ACountSaysWhatItStandsForWithVariantsAndPhases(string address, string sentence)
    {
        await using var app = new DashboardFactory();
        var html = WebUtility.HtmlDecode(await app.CreateClient().GetStringAsync(address));

        Assert.Matches($"<output class=\"muted load-total\"[^>]*>{Regex.Escape(sentence)}</output>", html);
    }

    [Theory]
    [InlineData("http")]
    [InlineData("cache")]
    public async Task EveryVariantFieldHasAVisibleLabelNotOnlyAPlaceholder(string kind)
    {
        await using var app = new DashboardFactory();
        var html = await app.CreateClient().GetStringAsync($"/runs/new?kind={kind}");

        var fields = Regex.Matches(html, "<(input|select|textarea)[^>]*name=\"\\w+\\.Variants\\[\\d+\\]\\.\\w+\"");
        Assert.NotEmpty(fields);
        foreach (Match field in fields)
        {
            // Each sits inside a <label> whose first child is its visible name.
            var before = html[..field.Index];
            Assert.Matches("<label><span>[^<]+</span>$", before);
        }
    }

    [Fact]
    public async Task TheCacheConnectionNameIsMarkedToShowOnlyWithRedis()
    {
        await using var app = new DashboardFactory();
        var html = await app.CreateClient().GetStringAsync("/runs/new?kind=cache");

        Assert.Matches("data-shown-when=\"Cache.Backend=redis\">\\s*<label for=\"Cache_Connection\"", html);
    }

    [Fact]
    public async Task TheEditorTooSavesWhatAppliesAndIgnoresTheRest()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var fields = Http("http://127.0.0.1:1/");
        (fields["Name"], fields["CronSchedule"], fields["Enabled"]) = ("timed", "", "true");
        (fields["Http.Mode"], fields["Http.Requests"], fields["Http.DurationSeconds"], fields["Http.Model"], fields["Http.Rate"]) = ("duration", "many", "7", "closed", "x");

        var saved = await FormPost.SubmitAsync(client, "/benchmarks/edit", fields);

        Assert.Equal(HttpStatusCode.Redirect, saved.StatusCode);
        var benchmark = (await client.GetFromJsonAsync<JsonElement>("/api/benchmarks"))[0].GetProperty("parameters");
        Assert.Equal(7, benchmark.GetProperty("durationSeconds").GetInt32());
        Assert.Equal(JsonValueKind.Null, benchmark.GetProperty("requests").ValueKind);
        Assert.Equal(JsonValueKind.Null, benchmark.GetProperty("rate").ValueKind);
    }

    [Fact]
    public async Task TheEditorShowsAStoredBenchmarksLoadFieldsInTheirMode()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var created = await client.PostAsJsonAsync("/api/benchmarks", new
        {
            name = "timed", kind = "table", parameters = new { connection = "tables", durationSeconds = 42, concurrency = 2, timeoutMs = 1234, model = "open", rate = 50.5 },
        });
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt32();

        var html = await client.GetStringAsync($"/benchmarks/edit/{id}");

        Assert.Matches("value=\"duration\"[^>]*checked|checked[^>]*value=\"duration\"", html);
        Assert.Contains("id=\"Table_DurationSeconds\" name=\"Table.DurationSeconds\" value=\"42\"", html);
        Assert.Contains("value=\"1234\"", html);
        Assert.Matches("value=\"open\"[^>]*checked|checked[^>]*value=\"open\"", html);
        Assert.Contains("value=\"50.5\"", html);
    }
}
