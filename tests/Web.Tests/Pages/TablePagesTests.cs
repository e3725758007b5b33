using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using BenchDashboard.TestSupport;
using Microsoft.AspNetCore.Mvc.Testing;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>Table Storage inserts from the web form and the API, against a real Azurite.</summary>
public class TablePagesTests
{
    static readonly WebApplicationFactoryClientOptions NoRedirects = new() { AllowAutoRedirect = false };

    static DashboardFactory Dashboard(Azurite azurite) => new(new() { ["ConnectionStrings:azurite"] = azurite.ConnectionString });

    static List<KeyValuePair<string, string>> TableFields(string requests) =>
    [
        new("Table.Connection", "azurite"), new("Table.Table", "formtable"), new("Table.EntityBytes", "512"), new("Table.BatchSize", "10"),
        new("Table.Operations", ""), new("Table.Operations", "single"), new("Table.Operations", "batch"),
        new("Table.Expect100Continue", ""), new("Table.Expect100Continue", "on"), new("Table.Expect100Continue", "off"),
        new("Table.Nagle", ""), new("Table.Nagle", "on"), new("Table.Nagle", "off"),
        new("Table.Mode", "requests"), new("Table.Requests", requests), new("Table.Concurrency", "1"), new("Table.WarmupRequests", "1"),
        new("Table.TimeoutMs", "10000"), new("Table.Cleanup", "true"),
    ];

    static async Task<HttpResponseMessage> SubmitAsync(HttpClient client, List<KeyValuePair<string, string>> fields)
    {
        var token = FormPost.Token(await client.GetStringAsync("/runs/new?kind=table"));
        return await client.PostAsync("/runs/new?kind=table", new FormUrlEncodedContent([.. fields, new("__RequestVerificationToken", token)]));
    }

    [Fact]
    public async Task TheFormRunsTheMatrixAndTheRunPageShowsEachVariantInEntitiesAgainstBothTogglesOn()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var app = Dashboard(azurite);
        var client = app.CreateClient(NoRedirects);

        var response = await SubmitAsync(client, TableFields("6"));
        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
        var id = long.Parse(response.Headers.Location!.ToString().Split('/').Last());
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());

        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        string[] matrix =
        [
            "single/expect-on/nagle-on", "single/expect-on/nagle-off", "single/expect-off/nagle-on", "single/expect-off/nagle-off",
            "batch/expect-on/nagle-on", "batch/expect-on/nagle-off", "batch/expect-off/nagle-on", "batch/expect-off/nagle-off",
        ];
        Assert.Equal(matrix, RowsOf(html, "table-variants"));
        Assert.Equal(matrix, RowsOf(html, "series-summary"));
        Assert.Equal("single/expect-on/nagle-on", Regex.Match(html, "<span id=\"baseline-name\">([^<]+)</span>").Groups[1].Value);
        var batchRow = Regex.Match(html, "<tr data-series=\"batch/expect-off/nagle-off\">(.*?)</tr>", RegexOptions.Singleline).Groups[1].Value;
        Assert.Contains("<td class=\"num\">60</td>", batchRow); // 6 requests × 10 entities written
        Assert.Contains("202 × 6", batchRow);
        Assert.Contains("This endpoint is an emulator (Azurite)", html);
        Assert.Contains($"Endpoint: http://127.0.0.1:{azurite.Port}/devstoreaccount1 (shared key), table 'formtable'.", html);
        Assert.Contains("Client: Azure.Data.Tables 12.13.0 (TableClient), service version 2020-12-06, nothing retried.", html);
        Assert.DoesNotContain(Azurite.AccountKey, html + run.GetRawText());
        await AssertOneBasisPerEntityAsync(client, id, html);
    }

    /// <summary>
    /// Per entity throughout: the percentages are each variant's median per entity against the baseline's, in the
    /// direction the per-variant table says; no figure blends single inserts with batches; Markdown and text lead with the matrix.
    /// </summary>
    static async Task AssertOneBasisPerEntityAsync(HttpClient client, long id, string html)
    {
        var api = await client.GetFromJsonAsync<JsonElement>($"/api/runs/{id}");
        var figures = api.GetProperty("figures").EnumerateArray().ToDictionary(f => f.GetProperty("series").GetString()!);
        Assert.Contains("As a percentage of <span id=\"baseline-name\">single/expect-on/nagle-on</span>, per entity", html);
        var percent = Regex.Match(html, "<table id=\"series-percent\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value;
        var headers = Regex.Matches(Regex.Match(percent, "<thead>(.*?)</thead>", RegexOptions.Singleline).Groups[1].Value, "<th[^>]*>([^<]*)</th>").Select(m => m.Groups[1].Value).ToList();
        var (median, rate) = (headers.IndexOf("Median / entity"), headers.IndexOf("Entities/s"));
        Assert.True(median > 0 && rate > 0, string.Join(" | ", headers));
        var baseline = figures["single/expect-on/nagle-on"];
        foreach (var (series, f) in figures.Where(f => f.Key != "single/expect-on/nagle-on"))
        {
            var row = Regex.Match(percent, $"<tr data-series=\"{series}\">(.*?)</tr>", RegexOptions.Singleline).Groups[1].Value;
            var cells = Regex.Matches(row, "<t[hd][^>]*>(.*?)</t[hd]>", RegexOptions.Singleline).Select(m => Regex.Replace(m.Groups[1].Value, "<[^>]+>", " ")).ToList();
            var ratio = f.GetProperty("p50PerEntityNs").GetDouble() / baseline.GetProperty("p50PerEntityNs").GetDouble();
            Assert.StartsWith((ratio * 100).ToString(ratio < 10 ? "0.0" : "#,0", System.Globalization.CultureInfo.InvariantCulture) + " %", cells[median].Trim());
            var apiPercent = api.GetProperty("series").EnumerateArray().Single(x => x.GetProperty("name").GetString() == series).GetProperty("percentOfFirst").GetProperty("median").GetDouble();
            Assert.Equal(ratio * 100, apiPercent, ratio * 100 * 1e-9); // the API on the page's basis
            // The same direction as the per-variant table's entities/s against the baseline: never faster there and slower here.
            var variantsRow = Regex.Match(Regex.Match(html, "<table id=\"table-variants\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value,
                $"<tr data-series=\"{Regex.Escape(series)}\">(.*?)</tr>", RegexOptions.Singleline).Groups[1].Value;
            if (variantsRow.Contains(" faster<")) Assert.Contains(" more", cells[rate]);
            if (variantsRow.Contains(" slower<")) Assert.Contains(" less", cells[rate]);
        }
        // The cards at the top say the same median per entity as the answer's matrix.
        foreach (var series in figures.Keys)
        {
            var card = Regex.Match(html, $"variant-card\" data-series=\"{Regex.Escape(series)}\">.*?data-field=\"p50\"[^>]*>([^<]+)<", RegexOptions.Singleline).Groups[1].Value;
            var cell = Regex.Match(html, $"<td class=\"[^\"]*\" data-series=\"{Regex.Escape(series)}\"[^>]*>\\s*<strong>([^<]+)</strong>", RegexOptions.Singleline).Groups[1].Value;
            Assert.Equal((series, cell.Trim()), (series, card.Trim()));
            Assert.NotEqual("", card.Trim());
        }
        Assert.DoesNotContain("all variants together", html);
        Assert.DoesNotContain("id=\"ladder\"", html);
        Assert.Contains("id=\"run-counts\"", html);

        var markdown = await client.GetStringAsync($"/api/runs/{id}?format=markdown");
        Assert.StartsWith("#### Per variant, per entity", markdown[markdown.IndexOf("####", StringComparison.Ordinal)..]);
        Assert.DoesNotContain("window, series", markdown);
        var text = await client.GetStringAsync($"/api/runs/{id}?format=text");
        Assert.True(text.IndexOf("Per variant, per entity", StringComparison.Ordinal) is > 0 and var at && at < text.IndexOf("TIMINGS", StringComparison.Ordinal));
        Assert.DoesNotContain("Median time per request", text);
    }

    [Fact]
    public async Task AConnectionThatWouldSendATokenOverHttpIsRefusedAsAFieldOnTheApiAndTheForm()
    {
        await using var app = new DashboardFactory(new() { ["ConnectionStrings:entra"] = "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;Credential=ManagedIdentity" });
        var client = app.CreateClient(NoRedirects);
        const string reason = "The connection string 'entra' cannot be used for Table Storage: Credential (Microsoft Entra sign-in) needs an https:// Table endpoint: a token is never sent over http.";

        var refused = await client.PostAsJsonAsync("/api/runs", new { kind = "table", connection = "entra", requests = 5 });
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Equal(reason, (await refused.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").GetProperty("connection")[0].GetString());

        var form = await SubmitAsync(client, [.. TableFields("5").Where(f => f.Key != "Table.Connection"), new("Table.Connection", "entra")]);
        Assert.Equal(HttpStatusCode.OK, form.StatusCode); // the form again, with the reason by its field
        Assert.Contains(reason, WebUtility.HtmlDecode(await form.Content.ReadAsStringAsync()));
        Assert.Empty(await client.GetFromJsonAsync<JsonElement[]>("/api/runs") ?? []);
    }

    [Fact]
    public async Task TheApiQueuesATableRunRefusesBadInputByFieldAndReturnsEveryVariant()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var app = Dashboard(azurite);
        var client = app.CreateClient();

        var refused = await client.PostAsJsonAsync("/api/runs", new { kind = "table", connection = "azurite", requests = 5, batchSize = 101, nagle = Array.Empty<bool>() });
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        var errors = (await refused.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors");
        Assert.Contains("1 to 100", errors.GetProperty("batchSize")[0].GetString());
        Assert.Equal("Choose on, off or both.", errors.GetProperty("nagle")[0].GetString());
        var typo = await client.PostAsJsonAsync("/api/runs", new { kind = "table", connection = "azurite", requests = 5, nagel = new[] { true } });
        Assert.Equal(HttpStatusCode.BadRequest, typo.StatusCode);
        Assert.Empty(await client.GetFromJsonAsync<JsonElement[]>("/api/runs") ?? []);

        var id = await DashboardFactory.CreateRunAsync(client, new
        {
            kind = "Table", connection = "azurite", table = "apitable", operations = new[] { "batch" }, batchSize = 5,
            expect100Continue = new[] { false }, nagle = new[] { true, false }, requests = 4, timeoutMs = 10_000,
        });
        var run = await DashboardFactory.WaitForEndAsync(client, id);

        Assert.Equal(("completed", "table"), (run.GetProperty("status").GetString(), run.GetProperty("kind").GetString()));
        var series = run.GetProperty("series").EnumerateArray().ToList();
        Assert.Equal(["batch/expect-off/nagle-on", "batch/expect-off/nagle-off"], series.Select(s => s.GetProperty("name").GetString()));
        Assert.All(series, s => Assert.Equal(4, s.GetProperty("stats").GetProperty("count").GetInt32()));
        Assert.Equal("azurite", run.GetProperty("parameters").GetProperty("connection").GetString());
        // The kind's own figures: per variant, in entities (4 batches of 5 each).
        var figures = run.GetProperty("figures").EnumerateArray().ToList();
        Assert.Equal(["batch/expect-off/nagle-on", "batch/expect-off/nagle-off"], figures.Select(f => f.GetProperty("series").GetString()));
        Assert.All(figures, f => Assert.Equal((5, 20), (f.GetProperty("entitiesPerRequest").GetInt32(), f.GetProperty("entitiesWritten").GetInt32())));
        Assert.All(figures, f => Assert.True(f.GetProperty("entitiesPerSecond").GetDouble() > 0));

        var compare = await client.GetStringAsync("/compare");
        Assert.Contains($"value=\"{id}/batch/expect-off/nagle-on\"", compare);
    }

    [Fact]
    public async Task ASavedTableBenchmarkOpensInTheEditorWithItsSettings()
    {
        await using var azurite = await Azurite.StartAsync();
        await using var app = Dashboard(azurite);
        var client = app.CreateClient(NoRedirects);
        var editor = await client.GetStringAsync("/benchmarks/edit?kind=table");
        List<KeyValuePair<string, string>> fields =
        [
            .. TableFields("7").Where(f => f.Key != "Table.Nagle" || f.Value != "on"), new("Name", "tables nightly"), new("kind", "table"),
            new("CronSchedule", ""), new("Enabled", "true"), new("__RequestVerificationToken", FormPost.Token(editor)),
        ];
        Assert.Equal(HttpStatusCode.Redirect, (await client.PostAsync("/benchmarks/edit", new FormUrlEncodedContent(fields))).StatusCode);

        var id = Regex.Match(await client.GetStringAsync("/benchmarks"), "href=\"/benchmarks/edit/(\\d+)\">tables nightly<").Groups[1].Value;
        var page = await client.GetStringAsync($"/benchmarks/edit/{id}");
        Assert.Contains("name=\"kind\" value=\"table\"", page);
        Assert.Matches("name=\"Table.Nagle\" value=\"off\" checked", page);
        Assert.DoesNotMatch("name=\"Table.Nagle\" value=\"on\" checked", page);
        Assert.Contains("value=\"formtable\"", page);
        Assert.Contains("Table Storage", await client.GetStringAsync("/benchmarks"));
    }

    static List<string> RowsOf(string html, string tableId)
    {
        var table = Regex.Match(html, $"<table id=\"{tableId}\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value;
        return Regex.Matches(table, "<tr data-series=\"([^\"]+)\">").Select(m => m.Groups[1].Value).ToList();
    }
}
