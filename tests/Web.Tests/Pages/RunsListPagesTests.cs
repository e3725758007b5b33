using System.Net;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>The runs list: a filter that matches nothing says so, and runs of several series are listed by their range.</summary>
public sealed class RunsListPagesTests
{
    [Fact]
    public async Task AStatusFilterWithNoMatchSaysSoWithTheTotalAndAWayBackNotNoRunsYet()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 50, keyCount = 10, phases = new[] { "write" } });
        Assert.Equal("completed", (await DashboardFactory.WaitForEndAsync(client, id)).GetProperty("status").GetString());

        var html = WebUtility.HtmlDecode(await client.GetStringAsync("/?status=Failed"));
        Assert.DoesNotContain("No runs yet", html);
        Assert.Matches("<p class=\"muted\" id=\"no-match\">No failed runs; 1 run in all. <a href=\"/\" id=\"clear-filter\">Show all runs</a></p>", html);

        // With no runs at all, it still says there are none yet.
        await using var empty = new DashboardFactory();
        Assert.Contains("No runs yet", await empty.CreateClient().GetStringAsync("/?status=Failed"));
    }

    [Fact]
    public async Task ARunOfSeveralPhasesIsListedByTheRangeOfItsPhasesOwnMediansNotABlend()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 300, keyCount = 20, phases = new[] { "write", "read-miss" } });
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        Assert.Equal("completed", run.GetProperty("status").GetString());
        var medians = run.GetProperty("series").EnumerateArray()
            .Select(s => (long?)Math.Round(s.GetProperty("stats").GetProperty("p50Ms").GetDouble() * 1e6)).ToList();
        Assert.Equal(2, medians.Count);

        // The runner stores the summary with the phases' figures as the run ends; the list reads only that.
        var deadline = DateTime.UtcNow.AddSeconds(30);
        string row;
        do
        {
            var html = WebUtility.HtmlDecode(await client.GetStringAsync("/"));
            row = Regex.Match(html, $"<tr class=\"[^\"]*\" data-run=\"{id}\".*?</tr>", RegexOptions.Singleline).Value;
            if (row.Contains("spread") || DateTime.UtcNow > deadline) break;
            await Task.Delay(200);
        } while (true);

        var p50 = Regex.Match(row, "<td class=\"num spread\" title=\"([^\"]*)\">([^<]*)<div class=\"sub\">range of 2</div></td>");
        Assert.True(p50.Success, row);
        Assert.Equal(Web.Pages.Display.Spread(medians), p50.Groups[2].Value);
        Assert.Contains("write: p50 ", p50.Groups[1].Value);
        Assert.Contains("read-miss: p50 ", p50.Groups[1].Value);
    }

    [Theory]
    [InlineData(new long[] { 4_100_000, 9_800_000 }, "4.100–9.800 ms")]
    [InlineData(new long[] { 850_000, 1_200_000 }, "850.0 µs–1.200 ms")]
    [InlineData(new long[] { 2_000_000, 2_000_000 }, "2.000 ms")]
    public void ASpreadGoesFromTheLowestToTheHighestWithItsUnitOnceWhenShared(long[] values, string shown) =>
        Assert.Equal(shown, Web.Pages.Display.Spread(values.Select(v => (long?)v)));

    [Fact]
    public async Task PagesAndFormsUseNoInternalWordsAndLinkTheGlossaryInstead()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "cache", requests = 200, keyCount = 20 });
        await DashboardFactory.WaitForEndAsync(client, id);

        foreach (var path in new[] { "/", $"/runs/{id}", $"/compare?items={id}/write,{id}/read-same", "/runs/new?kind=http", "/runs/new?kind=cache",
                     "/runs/new?kind=table", "/runs/new?kind=fileSystem", "/benchmarks", "/agents" })
        {
            var html = WebUtility.HtmlDecode(await client.GetStringAsync(path));
            var text = Regex.Replace(Regex.Replace(html, "<(script|style)[^>]*>.*?</\\1>", "", RegexOptions.Singleline), "<[^>]+>", " ");
            foreach (var word in new[] { "seed 0", "Seed 0", "MSER", "JIT tiering", "(seed", "seed 20111", "young:" })
                Assert.False(text.Contains(word, StringComparison.Ordinal), $"{path} says \"{word}\"");
        }
        var run = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));
        Assert.Contains("href=\"/glossary#warm-up\"", run);

        var glossary = await client.GetStringAsync("/glossary");
        foreach (var term in new[] { "variant", "baseline", "warm-up", "verdict", "process-age" }) Assert.Contains($"id=\"{term}\"", glossary);
        Assert.Contains("MSER-5", glossary); // named there, for the reader who wants the method
    }

    [Fact]
    public async Task TheApiDocsPageHasAWayBackToTheDashboard()
    {
        await using var app = new DashboardFactory();
        var client = app.CreateClient();
        var docs = await client.GetStringAsync("/api-docs/index.html");
        Assert.Contains("/js/api-docs.js", docs);
        var script = await client.GetStringAsync("/js/api-docs.js");
        Assert.Contains("href=\"/\"", script);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/css/api-docs.css")).StatusCode);
    }
}
