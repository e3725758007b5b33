using System.Net;
using System.Net.Http.Json;
using System.Text.RegularExpressions;
using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Web.Tests.Pages;

/// <summary>A file-system run's page: one table that compares each phase across locations, coloured only on a verdict.</summary>
public class FileSystemPagesTests
{
    /// <summary>The answer's cells: the series each shows, the series it is compared with, its verdict and its class.</summary>
    static List<(string Series, string Against, string Call, string Css, string Text)> Cells(string html)
    {
        var table = Regex.Match(html, "<table class=\"matrix\" id=\"answer-locations\">(.*?)</table>", RegexOptions.Singleline).Groups[1].Value;
        return Regex.Matches(table, "<td class=\"num ?([^\"]*)\" data-series=\"([^\"]+)\"\\s+data-against=\"([^\"]*)\" data-call=\"([^\"]*)\">(.*?)</td>", RegexOptions.Singleline)
            .Select(m => (m.Groups[2].Value, m.Groups[3].Value, m.Groups[4].Value, m.Groups[1].Value.Trim(), Regex.Replace(Regex.Replace(m.Groups[5].Value, "<[^>]+>", " "), "\\s+", " ").Trim())).ToList();
    }

    [Fact]
    public async Task EachPhaseIsComparedOnlyWithTheSamePhaseElsewhereInOneTableAndNothingBlendsThePhases()
    {
        using var dir = new TempDirectory();
        var second = Directory.CreateDirectory(dir.File("second")).FullName;
        await using var app = new DashboardFactory(new() { ["FileSystem:AllowedRoots:0"] = second });
        var client = app.CreateClient();

        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "fileSystem", directories = new[] { "temp", second }, fileCount = 80, fileBytes = 512, filesPerDirectory = 20, largeFileMiB = 1 });
        Assert.Equal("completed", (await DashboardFactory.WaitForEndAsync(client, id)).GetProperty("status").GetString());
        var html = WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}"));

        var cells = Cells(html);
        Assert.Equal(12, cells.Count); // 2 locations × 6 phases
        foreach (var cell in cells)
        {
            var phase = cell.Series.Split('/')[1];
            if (cell.Series.StartsWith("temp/")) Assert.Equal(("", true), (cell.Against, cell.Text.EndsWith(" baseline")));
            else Assert.Equal($"temp/{phase}", cell.Against); // never another phase
            Assert.Equal(cell.Call is "Faster" or "Slower", cell.Css is "cell-better" or "cell-worse"); // coloured exactly when called
        }
        // One framing: no second locations table, no phase as a percentage of another, no summary or ladder of all phases together.
        Assert.DoesNotContain("id=\"filesystem-table\"", html);
        Assert.DoesNotContain("id=\"series-percent\"", html);
        Assert.DoesNotContain("all phases together", html);
        Assert.DoesNotContain("id=\"ladder\"", html);
        Assert.Contains("id=\"run-counts\"", html);

        // The API agrees: no phase as a percentage of another.
        var api = await client.GetFromJsonAsync<System.Text.Json.JsonElement>($"/api/runs/{id}");
        Assert.All(api.GetProperty("series").EnumerateArray(), series => Assert.Empty(series.GetProperty("percentOfFirst").EnumerateObject()));
        var markdown = await client.GetStringAsync($"/api/runs/{id}?format=markdown");
        Assert.StartsWith("#### Median operation per phase (ms), each location against temp", markdown[markdown.IndexOf("####", StringComparison.Ordinal)..]);
        var text = await client.GetStringAsync($"/api/runs/{id}?format=text");
        Assert.True(text.IndexOf("ANSWER", StringComparison.Ordinal) < text.IndexOf("TIMINGS", StringComparison.Ordinal));
        Assert.DoesNotContain("Median time per request", text);
    }

    [Fact]
    public async Task TwoLocationsOnOneDiskGetNoColouredVerdict()
    {
        await using var app = new DashboardFactory(new() { ["Runner:Process"] = "None" });
        var client = app.CreateClient();
        long id;
        using (var scope = app.Services.CreateScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            var run = new Run
            {
                Kind = FileSystemKind.KindName, Status = RunStatus.Completed, QueuedUtcMs = 1, StartedUtcMs = 1, EndedUtcMs = 2,
                ParametersJson = Json.Serialize(new FileSystemParameters { Directories = ["temp", "temp"], FileCount = 300, LargeFileMiB = 0 }),
            };
            db.Runs.Add(run);
            db.SaveChanges();
            id = run.Id;
            // Both folders on one disk, taking turns: one distribution, with a slow stretch every 50 rounds that hits both alike.
            var random = new Random(7);
            long offset = 0;
            var index = 0;
            foreach (var phase in new[] { "create", "read", "stat", "delete" })
                for (var round = 0; round < 300; round++)
                {
                    var shared = Math.Exp(0.3 * (random.NextDouble() - 0.5)) * (round / 50 % 2 == 0 ? 1 : 1.5);
                    var leader = round == 0 ? 0 : random.Next(2); // the first round in the order given, as the runner goes
                    for (var turn = 0; turn < 2; turn++)
                    {
                        var latency = (long)(40_000 * shared * Math.Exp(0.4 * (random.NextDouble() - 0.5)));
                        db.Samples.Add(new Sample { RunId = id, Index = index++, OffsetNs = offset, LatencyNs = latency, Series = $"{((leader + turn) % 2 == 0 ? "temp" : "temp2")}/{phase}" });
                        offset += latency;
                    }
                }
            db.SaveChanges();
        }

        var cells = Cells(WebUtility.HtmlDecode(await client.GetStringAsync($"/runs/{id}")));

        Assert.Equal(8, cells.Count);
        Assert.All(cells, c => Assert.Equal("", c.Css));
        Assert.All(cells.Where(c => c.Series.StartsWith("temp2/")), c => Assert.Contains(c.Call, new[] { "NoClearDifference", "Equivalent" }));
    }
}
