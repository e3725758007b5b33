using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

public class CachePagesTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static List<KeyValuePair<string, string>> CacheFields(string requests, params string[] phases) =>
    [
        new("Cache.Backend", "memory"), new("Cache.Mode", "requests"), new("Cache.Requests", requests), new("Cache.KeyCount", "20"),
        new("Cache.ValueBytes", "32"), new("Cache.Concurrency", "1"), new("Cache.TimeoutMs", "1000"), new("Cache.KeyPrefix", "form"),
        new("Cache.Cleanup", "true"), new("Cache.Phases", ""), .. phases.Select(p => new KeyValuePair<string, string>("Cache.Phases", p)),
    ];

    static async Task<HttpResponseMessage> SubmitAsync(HttpClient client, List<KeyValuePair<string, string>> fields)
    {
        var page = await client.GetStringAsync("/runs/new?kind=cache");
        var token = FormPost.Token(page);
        return await client.PostAsync("/runs/new?kind=cache", new FormUrlEncodedContent([.. fields, new("__RequestVerificationToken", token)]));
    }

    [Fact]
    public async Task TheCacheFormQueuesTheChosenPhasesAndTheRunPageShowsSeed000sTable()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var response = await SubmitAsync(client, CacheFields("300", "write", "read-distinct", "read-miss"));
        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        var id = long.Parse(response.Headers.Location!.ToString().Split('/').Last());
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        Assert.Equal(["write", "read-distinct", "read-miss"], RowsOf(html, "series-summary"));
        Assert.Equal(["write", "read-distinct", "read-miss"], RowsOf(html, "series-percent"));
        Assert.Contains("<span id=\"baseline-name\">write</span>", html);
        // The page and the API agree on the figures: the write phase's operations per second, in its row.
        var writeRate = run.GetProperty("series")[0].GetProperty("stats").GetProperty("requestsPerSecond").GetDouble();
        var writeRow = Regex.Match(html, "<tr data-series=\"write\">(.*?)</tr>", RegexOptions.Singleline).Groups[1].Value;
        Assert.Equal(writeRate.ToString("N1", System.Globalization.CultureInfo.InvariantCulture), Regex.Matches(writeRow, "<td class=\"num\">([^<]*)</td>")[4].Groups[1].Value);

        var rebased = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}?baseline=read-miss"));
        Assert.Contains("<span id=\"baseline-name\">read-miss</span>", rebased);
        Assert.Matches("<tr data-series=\"read-miss\">\\s*<th>read-miss</th>\\s*<td class=\"num\">100.0 %</td>", rebased);
    }

    [Fact]
    public async Task AVariantRowTakesTurnsInEveryPhaseAndOnlyAPhasesVariantsArePairedOnTheComparePage()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var fields = CacheFields("200", "write", "read-same");
        fields.AddRange([new("Cache.FirstVariantName", "small"), new("Cache.Variants[0].Name", "big"), new("Cache.Variants[0].ValueBytes", "4096"),
            new("Cache.Variants[1].Name", ""), new("Cache.InterleaveBlock", "1")]);
        var response = await SubmitAsync(client, fields);
        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        var id = long.Parse(response.Headers.Location!.ToString().Split('/').Last());
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        Assert.Equal(["small/write", "big/write", "small/read-same", "big/read-same"], run.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        Assert.Equal(["small/write", "big/write", "small/read-same", "big/read-same"], RowsOf(html, "series-summary"));

        // A phase's two variants took turns: their verdict pairs the turns. Different phases did not.
        var paired = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={id}/small/read-same,{id}/big/read-same");
        Assert.NotEmpty(paired.GetProperty("verdicts").EnumerateArray());
        Assert.All(paired.GetProperty("verdicts").EnumerateArray(), v => Assert.Equal("interleaved", v.GetProperty("noise").GetString()));
        var apart = await client.GetFromJsonAsync<JsonElement>($"/api/compare?items={id}/small/write,{id}/big/read-same");
        Assert.NotEmpty(apart.GetProperty("verdicts").EnumerateArray());
        Assert.All(apart.GetProperty("verdicts").EnumerateArray(), v => Assert.NotEqual("interleaved", v.GetProperty("noise").GetString()));

        // A variant's bad field comes back beside the variants, saying which, and nothing is queued.
        fields[fields.FindIndex(f => f.Key == "Cache.Variants[0].ValueBytes")] = new("Cache.Variants[0].ValueBytes", "-5");
        var bad = await SubmitAsync(client, fields);
        Assert.Equal(HttpStatusCode.OK, bad.StatusCode);
        Assert.Matches("data-valmsg-for=\"Cache.Variants\"[^>]*>variants\\[1\\]\\.valueBytes: Value size must be", WebUtility.HtmlDecode(await bad.Content.ReadAsStringAsync()));
    }

    [Fact]
    public async Task NoPhaseChosenIsAFieldErrorAndNothingIsQueued()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);

        var response = await SubmitAsync(client, CacheFields("10"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Matches("data-valmsg-for=\"Cache.Phases\"[^>]*>Choose at least one phase.</span>", await response.Content.ReadAsStringAsync());
        Assert.Equal(0, (await client.GetFromJsonAsync<JsonElement>("/api/runs")).GetArrayLength());
    }

    [Fact]
    public async Task ASavedCacheBenchmarkKeepsItsKindAndRunsFromTheBenchmarksPage()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var editor = await client.GetStringAsync("/benchmarks/edit?kind=cache");
        var token = FormPost.Token(editor);
        List<KeyValuePair<string, string>> fields =
            [.. CacheFields("50", "write", "read-same"), new("Name", "seed 004 in memory"), new("kind", "cache"), new("Enabled", "true"), new("__RequestVerificationToken", token)];
        Assert.Equal(HttpStatusCode.Redirect, (await client.PostAsync("/benchmarks/edit", new FormUrlEncodedContent(fields))).StatusCode);

        var list = await client.GetStringAsync("/benchmarks");
        var id = Regex.Match(list, "href=\"/benchmarks/edit/(\\d+)\">seed 004 in memory<").Groups[1].Value;
        var edit = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/edit/{id}"));
        Assert.Contains("name=\"kind\" value=\"cache\"", edit);
        Assert.Matches("value=\"read-same\" checked=\"checked\"", edit);
        Assert.DoesNotMatch("value=\"read-miss\" checked=\"checked\"", edit);

        var run = await client.PostAsync($"/benchmarks?handler=Run&id={id}", new FormUrlEncodedContent([new("__RequestVerificationToken", FormPost.Token(list))]));
        Assert.Equal(HttpStatusCode.Redirect, run.StatusCode);
        var result = await DashboardFactory.WaitForEndAsync(client, long.Parse(run.Headers.Location!.ToString().Split('/').Last()));
        Assert.Equal(["write", "read-same"], result.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("name").GetString()));
        Assert.Equal(int.Parse(id), result.GetProperty("benchmarkId").GetInt32());
    }

    [Fact]
    public async Task ASavedBenchmarkKeepsItsKindWhateverTheAddressOrFormSays()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient(NoRedirects);
        var editor = await client.GetStringAsync("/benchmarks/edit");
        List<KeyValuePair<string, string>> http =
        [
            new("Name", "an http one"), new("kind", "http"), new("Http.Url", "http://127.0.0.1:1/"), new("Http.Method", "GET"), new("Http.Mode", "requests"),
            new("Http.Requests", "5"), new("Http.Concurrency", "1"), new("Http.TimeoutMs", "1000"), new("Http.WarmupRequests", "0"),
            new("__RequestVerificationToken", FormPost.Token(editor)),
        ];
        Assert.Equal(HttpStatusCode.Redirect, (await client.PostAsync("/benchmarks/edit", new FormUrlEncodedContent(http))).StatusCode);
        var id = Regex.Match(await client.GetStringAsync("/benchmarks"), "href=\"/benchmarks/edit/(\\d+)\">an http one<").Groups[1].Value;

        // The stored kind wins over ?kind=cache in the address …
        var page = WebUtility.HtmlDecode(await client.GetStringAsync($"/benchmarks/edit/{id}?kind=cache"));
        Assert.Contains("name=\"kind\" value=\"http\"", page);
        Assert.Contains("value=\"http://127.0.0.1:1/\"", page);

        // … and a posted form of the other kind is refused, changing nothing.
        List<KeyValuePair<string, string>> cache =
            [.. CacheFields("10", "write"), new("Name", "an http one"), new("kind", "cache"), new("__RequestVerificationToken", FormPost.Token(page))];
        var refused = await client.PostAsync($"/benchmarks/edit/{id}", new FormUrlEncodedContent(cache));
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("its kind cannot change", WebUtility.HtmlDecode(await refused.Content.ReadAsStringAsync()));
        Assert.Contains("<td>HTTP latency</td>", await client.GetStringAsync("/benchmarks"));
    }

    static List<string> RowsOf(string html, string tableId)
    {
        var table = Regex.Match(html, $"<table id=\"{tableId}\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value;
        return Regex.Matches(table, "<tr data-series=\"([^\"]+)\">").Select(m => m.Groups[1].Value).ToList();
    }
}
