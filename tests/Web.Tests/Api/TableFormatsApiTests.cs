using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Web.Tests.Api;

/// <summary>
/// Blog-ready tables from the API: <c>/api/compare?format=markdown|text</c> (each figure as a percentage of the baseline),
/// <c>/api/runs/{id}?format=text</c> (go-wrk/ab) and <c>/api/runs/{id}/analysis?format=markdown|text</c> (time-window
/// tables). Markdown is read back through Markdig; text is checked for columns that line up; both against the JSON.
/// </summary>
public class TableFormatsApiTests
{
    const string Key = "tables-key";

    static readonly (string Column, string Json, string Percent)[] Figures =
    [
        ("Total time (s)", "elapsedMs", "totalTime"), ("Average (ms)", "meanMs", "mean"), ("Median (ms)", "p50Ms", "median"),
        ("p90 (ms)", "p90Ms", "p90"), ("p95 (ms)", "p95Ms", "p95"), ("p99 (ms)", "p99Ms", "p99"), ("Slowest (ms)", "maxMs", "max"),
        ("Per second", "succeededPerSecond", "throughput"), ("Errors", "errors", "errors"),
    ];

    static async Task<(DashboardFactory App, HttpClient Admin, long First, long Second)> TwoRunsAsync(KestrelTarget target)
    {
        var app = new DashboardFactory(new() { ["Auth:Required"] = "always", ["Auth:ApiKey"] = Key });
        var admin = app.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", Key);
        var first = await DashboardFactory.CreateRunAsync(admin, new { kind = "http", url = target.Url("/delay?ms=1&token=cmp-secret-a").ToString(), requests = 40, concurrency = 1 });
        var second = await DashboardFactory.CreateRunAsync(admin, new { kind = "http", url = target.Url("/delay?ms=20&token=cmp-secret-b").ToString(), requests = 40, concurrency = 1 });
        await DashboardFactory.WaitForEndAsync(admin, first);
        await DashboardFactory.WaitForEndAsync(admin, second);
        return (app, admin, first, second);
    }

    [Fact]
    public async Task TheComparisonAsMarkdownRendersSeed000sTableWithTheJsonFiguresAndTheirPercentagesOfTheBaseline()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (app, admin, first, second) = await TwoRunsAsync(target);
        await using var disposeApp = app;
        var query = $"/api/compare?items={first},{second}&baseline={first}";
        var json = await admin.GetFromJsonAsync<JsonElement>(query);

        var answer = await admin.GetAsync(query + "&format=markdown");
        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Equal("text/markdown", answer.Content.Headers.ContentType!.MediaType);
        var markdown = await answer.Content.ReadAsStringAsync();

        var table = MarkdownTables.Find(markdown, "Item");
        Assert.Equal(["Item", .. Figures.Select(f => f.Column), "Verdict (median)"], table[0]);
        var items = json.GetProperty("items").EnumerateArray().ToList();
        Assert.Equal(items.Count, table.Count - 1);
        foreach (var (item, row) in items.Zip(table.Skip(1)))
        {
            var baseline = item.GetProperty("isBaseline").GetBoolean();
            Assert.Equal(item.GetProperty("label").GetString() + (baseline ? " (baseline)" : ""), row[0]);
            var stats = item.GetProperty("stats");
            for (var i = 0; i < Figures.Length; i++)
            {
                var (column, field, percentKey) = Figures[i];
                var value = stats.GetProperty(field).GetDouble();
                var figure = column switch
                {
                    "Total time (s)" => (value / 1000).ToString("F2", CultureInfo.InvariantCulture),
                    "Per second" => value.ToString("F1", CultureInfo.InvariantCulture),
                    "Errors" => value.ToString("N0", CultureInfo.InvariantCulture),
                    _ => value.ToString("F3", CultureInfo.InvariantCulture),
                };
                var percent = item.GetProperty("percentOfBaseline").GetProperty(percentKey);
                var expected = baseline || percent.ValueKind == JsonValueKind.Null ? figure : $"{figure} ({percent.GetDouble().ToString("F1", CultureInfo.InvariantCulture)} %)";
                Assert.Equal(expected, row[i + 1]);
            }
        }
        // 1 ms against 20 ms (far apart, so a busy machine cannot swap them): the second's median is well above its baseline's, and its percentage says so.
        var median = double.Parse(table[2][3].Split('(')[1].TrimEnd(' ', '%', ')'), CultureInfo.InvariantCulture);
        Assert.True(median > 150, $"median at {median} % of the baseline's");

        // The verdicts are the JSON's words; what differs includes the URL, its token hidden from an anonymous reader.
        var verdictTable = MarkdownTables.Find(markdown, "Against the baseline");
        Assert.Equal(["Against the baseline", "Median", "p95", "p99"], verdictTable[0]);
        foreach (var verdict in json.GetProperty("verdicts").EnumerateArray())
        {
            var row = verdictTable.Single(r => r[0] == items.Single(i => i.GetProperty("key").GetString() == verdict.GetProperty("item").GetString()).GetProperty("label").GetString());
            Assert.Equal(verdict.GetProperty("text").GetString(), row[Array.IndexOf(["median", "p95", "p99"], verdict.GetProperty("metric").GetString()) + 1]);
        }
        Assert.Contains("cmp-secret-a", markdown); // the administrator sees it whole
        var anonymous = app.CreateClient();
        var shown = await anonymous.GetStringAsync(query + "&format=markdown");
        var anonymousJson = await anonymous.GetStringAsync(query);
        Assert.DoesNotContain("cmp-secret", anonymousJson);
        Assert.DoesNotContain("cmp-secret", shown);
        Assert.Contains("token=(hidden, ", MarkdownTables.Find(shown, "Field").Single(r => r[0] == "parameters.url")[1]);
        Assert.DoesNotContain("cmp-secret", await anonymous.GetStringAsync(query + "&format=text"));

        var bad = await admin.GetAsync(query + "&format=xml");
        Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        Assert.True((await bad.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("format", out _));
        Assert.Equal(HttpStatusCode.BadRequest, (await admin.GetAsync($"/api/compare?items={first}&format=markdown")).StatusCode); // one item: nothing to compare
    }

    [Fact]
    public async Task TheComparisonAsTextHasAlignedColumnsHoldingTheMarkdownsCells()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (app, admin, first, second) = await TwoRunsAsync(target);
        await using var disposeApp = app;
        var query = $"/api/compare?items={first},{second}&baseline={first}";
        var markdownTable = MarkdownTables.Find(await admin.GetStringAsync(query + "&format=markdown"), "Item");

        var answer = await admin.GetAsync(query + "&format=text");
        Assert.Equal("text/plain", answer.Content.Headers.ContentType!.MediaType);
        var lines = (await answer.Content.ReadAsStringAsync()).Split('\n');
        var header = Array.FindIndex(lines, l => l.StartsWith("Item  ", StringComparison.Ordinal));
        Assert.True(header > 0, "a table headed Item");

        Assert.Equal(AlignedTable.Rows(markdownTable), AlignedTable.Rows(AlignedTable.Read(lines, header, markdownTable.Count)));
    }

    [Fact]
    public async Task ARunAsTextIsGoWrksLayoutOfTheJsonFiguresWithSecretsHiddenFromOthers()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (app, admin, first, _) = await TwoRunsAsync(target);
        await using var __ = app;
        var stats = (await admin.GetFromJsonAsync<JsonElement>($"/api/runs/{first}")).GetProperty("stats");

        var answer = await admin.GetAsync($"/api/runs/{first}?format=text");
        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Equal("text/plain", answer.Content.Headers.ContentType!.MediaType);
        var lines = (await answer.Content.ReadAsStringAsync()).Split('\n');
        Assert.Equal("==========================BENCHMARK==========================", lines[0]);
        Assert.Contains($"Run:                            {first} (completed)", lines);
        Assert.Contains("Total number of calls:          40", lines);
        Assert.Contains($"Median time per request:        {stats.GetProperty("p50Ms").GetDouble().ToString("0.00", CultureInfo.InvariantCulture)}ms", lines);
        Assert.Contains($"99th percentile time:           {stats.GetProperty("p99Ms").GetDouble().ToString("0.00", CultureInfo.InvariantCulture)}ms", lines);
        Assert.Contains($"{"95%",6} {stats.GetProperty("p95Ms").GetDouble().ToString("0.00", CultureInfo.InvariantCulture),10}", lines);
        Assert.Contains(lines, l => l.StartsWith("URL:", StringComparison.Ordinal) && l.Contains("cmp-secret-a"));

        var anonymous = app.CreateClient();
        var shown = await anonymous.GetStringAsync($"/api/runs/{first}?format=text");
        Assert.DoesNotContain("cmp-secret", shown);
        Assert.Contains("token=(hidden, ", shown);
        Assert.Equal(HttpStatusCode.NotFound, (await admin.GetAsync("/api/runs/999999?format=text")).StatusCode);
    }

    [Fact]
    public async Task TheTablePerWindowAsMarkdownAndTextHoldsTheAnalysisWindows()
    {
        await using var target = await KestrelTarget.StartAsync();
        var (app, admin, first, _) = await TwoRunsAsync(target);
        await using var __ = app;
        var analysis = await admin.GetFromJsonAsync<JsonElement>($"/api/runs/{first}/analysis");
        var windows = analysis.GetProperty("windows").EnumerateArray().ToList();

        var markdown = await admin.GetStringAsync($"/api/runs/{first}/analysis?format=markdown");
        var table = MarkdownTables.Find(markdown, "Window");
        Assert.Equal(windows.Count, table.Count - 1);
        foreach (var (window, row) in windows.Zip(table.Skip(1)))
        {
            Assert.Equal(window.GetProperty("number").GetInt32().ToString(CultureInfo.InvariantCulture), row[0]);
            Assert.Equal(window.GetProperty("count").GetInt32().ToString("N0", CultureInfo.InvariantCulture), row[2]);
            if (window.GetProperty("meanMs").ValueKind == JsonValueKind.Number)
            {
                Assert.Equal(window.GetProperty("meanMs").GetDouble().ToString("F3", CultureInfo.InvariantCulture), row[4]);
                Assert.Equal(window.GetProperty("p95Ms").GetDouble().ToString("F3", CultureInfo.InvariantCulture), row[7]);
            }
        }

        var lines = (await admin.GetStringAsync($"/api/runs/{first}/analysis?format=text")).Split('\n');
        Assert.StartsWith("Per ", lines[0]);
        Assert.Equal(AlignedTable.Rows(table), AlignedTable.Rows(AlignedTable.Read(lines, 1, table.Count)));

        var bad = await admin.GetAsync($"/api/runs/{first}/analysis?format=pdf");
        Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        Assert.True((await bad.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("errors").TryGetProperty("format", out _));
    }
}

/// <summary>A plain-text table read back by its columns: the dashed rule under the titles gives each column's span.</summary>
static class AlignedTable
{
    /// <summary>Each row as one string of its cells, for a comparison that names the row that differs.</summary>
    public static List<string> Rows(IEnumerable<IEnumerable<string>> table) => table.Select(r => string.Join(" | ", r)).ToList();

    /// <param name="header">The index of the titles' line; the rule follows it, then <paramref name="rows"/> − 1 rows.</param>
    public static List<List<string>> Read(string[] lines, int header, int rows)
    {
        var rule = lines[header + 1];
        Assert.Matches("^-+(  -+)*$", rule);
        var spans = new List<(int Start, int End)>();
        for (var i = 0; i < rule.Length; i++)
            if (rule[i] == '-' && (i == 0 || rule[i - 1] == ' '))
            {
                var end = rule.IndexOf(' ', i) is var e and >= 0 ? e : rule.Length;
                spans.Add((i, end));
            }
        var table = new List<List<string>>();
        foreach (var line in lines.Skip(header).Take(1).Concat(lines.Skip(header + 2).Take(rows - 1)))
        {
            var cells = new List<string>();
            for (var c = 0; c < spans.Count; c++)
            {
                var (start, end) = spans[c];
                // Between columns there are only spaces: a cell that spilled over its column would show here.
                if (c > 0) Assert.True(line.Substring(spans[c - 1].End, start - spans[c - 1].End).Trim().Length == 0, $"'{line}' spills over column {c}");
                cells.Add(start >= line.Length ? "" : line[start..Math.Min(end, line.Length)].Trim());
            }
            Assert.True(line.Length <= spans[^1].End, $"'{line}' is wider than its table");
            table.Add(cells);
        }
        return table;
    }
}
