using System.Text.Json;
using BenchDashboard.Core.Runs.Text;

namespace BenchDashboard.Core.Tests.Runs;

/// <summary>A run's text when its kind has an answer: the answer first, in columns, and nothing that blends unlike series.</summary>
public class RunTextAnswerTests
{
    static JsonElement Run(bool? blended) => JsonSerializer.SerializeToElement(new
    {
        id = 5, status = "completed", kind = "table", blended,
        stats = new { count = 40, elapsedMs = 2000.0, meanMs = 3.0, p50Ms = 2.5, p99Ms = 9.0, maxMs = 10.0, requestsPerSecond = 20.0, totalBytes = 100 },
        answer = new[]
        {
            new
            {
                title = "Per variant, per entity", columns = new[] { "Variant", "Median / entity (ms)", "Verdict" },
                rows = new[] { new[] { "single/expect-on/nagle-on", "2.500", "baseline" }, new[] { "batch/expect-on/nagle-on", "0.400", "no clear difference" } },
                note = "Per entity.",
            },
        },
        series = new[]
        {
            new { name = "single/expect-on/nagle-on", stats = new { count = 20, p50Ms = 2.5, p99Ms = 3.0, requestsPerSecond = 10.0 }, percentOfFirst = new { median = 100.0 } },
            new { name = "batch/expect-on/nagle-on", stats = new { count = 20, p50Ms = 4.0, p99Ms = 9.0, requestsPerSecond = 10.0 }, percentOfFirst = new { median = 160.0 } },
        },
    });

    [Fact]
    public void TheAnswerComesFirstInAlignedColumnsAndNoFigureBlendsUnlikeSeries()
    {
        var text = RunText.Format(Run(blended: false));
        var lines = text.Split('\n').Select(l => l.TrimEnd('\r')).ToList();

        var title = lines.IndexOf("Per variant, per entity");
        Assert.True(title > 0 && title < lines.FindIndex(l => l.Contains("TIMINGS")), text);
        Assert.Equal("Variant                    Median / entity (ms)              Verdict", lines[title + 1]);
        Assert.Equal("single/expect-on/nagle-on                 2.500             baseline", lines[title + 2]);
        Assert.Equal("batch/expect-on/nagle-on                  0.400  no clear difference", lines[title + 3]);
        Assert.DoesNotContain("Median time per request", text);
        Assert.DoesNotContain("Percentage of the requests", text);
        Assert.DoesNotContain("160.0", text); // no series as a percentage of another
    }

    [Fact]
    public void ARunOfLikeSeriesKeepsItsSummaryAndPercentages()
    {
        var text = RunText.Format(Run(blended: null));

        Assert.Contains("Median time per request:        2.50ms", text);
        Assert.Contains("160.0", text);
    }
}
