using System.Globalization;
using BenchDashboard.Core.Reports.Markdown;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Runs;

/// <summary>A run's Markdown, rendered by Markdig: each figure in its cell equals the digest's, and stored names stay text.</summary>
public class RunMarkdownTests
{
    /// <summary>120 answered requests over 60 s, latency 1..120 ms (so nearest ranks are easy to check), 3 of them 500s, and 2 warm-up ones.</summary>
    static List<Sample> Samples()
    {
        var samples = Enumerable.Range(0, 2).Select(i => new Sample { Index = i, IsWarmup = true, LatencyNs = 900_000_000, StatusCode = 200 }).ToList();
        samples.AddRange(Enumerable.Range(0, 120).Select(i => new Sample
        {
            Index = i + 2, OffsetNs = i * 500_000_000L, LatencyNs = (i + 1) * 1_000_000L, StatusCode = i % 40 == 0 ? 500 : 200, Bytes = 100,
            Error = i % 40 == 0 ? ErrorKind.ServerError : ErrorKind.None, ConnectNs = 100_000, HeadersNs = (i + 1) * 900_000L,
        }));
        return samples;
    }

    static (Run Run, RunDigest Digest) Finished(string? benchmarkName = "dynamic cache") =>
        (new Run { Id = 42, Kind = "http", Status = RunStatus.Completed, BenchmarkName = benchmarkName, ParametersJson = "{}" },
         RunDigest.Build(Samples(), LatencyBasis.Corrected, (_, _) => null).Digest);

    [Fact]
    public void TheSummaryHasGoWrkAndAbFieldsFromTheDigest()
    {
        var (run, digest) = Finished();
        var markdown = RunMarkdown.Of(run, digest, """{"url":"http://127.0.0.1:9/php?x=1","method":"GET","concurrency":1}""");

        var summary = MarkdownTables.Find(markdown, "Field").Skip(1).ToDictionary(r => r[0], r => r[1]);
        Assert.Equal("GET http://127.0.0.1:9/php?x=1", summary["Target"]);
        Assert.Equal("1", summary["Concurrency level"]);
        Assert.Equal("120", summary["Complete requests"]);
        Assert.Equal("3 (serverError 3)", summary["Failed requests"]);
        Assert.Equal("2", summary["Warm-up requests (not counted)"]);
        Assert.Equal("59.620 s", summary["Time taken for tests"]); // from the first start (0 s) to the last end (59.5 s + 120 ms)
        Assert.Equal((digest.Statistics.ElapsedNs / 1e9).ToString("F3", CultureInfo.InvariantCulture) + " s", summary["Time taken for tests"]);
        Assert.Equal("60.500 ms (mean)", summary["Time per request"]);
        Assert.Equal("60.000 ms", summary["Median"]);
        Assert.Equal("119.000 ms", summary["99th percentile"]);
        Assert.Equal("120.000 ms", summary["Slowest"]);
        Assert.Equal("12,000 bytes", summary["Total transferred"]);
        Assert.Equal("1xx 0, 2xx 117, 3xx 0, 4xx 0, 5xx 3, no response 0", summary["Response classes"]);
    }

    [Fact]
    public void TheLadderConnectionTimesAndWindowsRenderAsTables()
    {
        var (run, digest) = Finished();
        var markdown = RunMarkdown.Of(run, digest, "{}", windowSeconds: 10);

        var ladder = MarkdownTables.Find(markdown, "Percentile");
        Assert.Equal(["50%", "66%", "75%", "80%", "90%", "95%", "98%", "99%", "99.9%", "100%"], ladder.Skip(1).Select(r => r[0]));
        var latency = digest.Statistics.Latency!;
        foreach (var (label, permille) in LatencyLadder.Rungs)
            Assert.Equal((latency.ValueAt(permille) / 1e6).ToString("F3", CultureInfo.InvariantCulture), ladder.Single(r => r[0] == label)[1]);
        Assert.Equal("120.000 (longest request)", ladder[^1][1]);

        var connections = MarkdownTables.Find(markdown, "");
        Assert.Equal(["Connect", "Processing", "Waiting", "Total"], connections.Skip(1).Select(r => r[0]));
        Assert.Equal("0.100", connections[1][1]);

        // The time-window table: 6 windows of 10 s, 20 requests each, Avg/80/90/95/Min/Max of their own samples.
        var windows = MarkdownTables.Find(markdown, "Window");
        Assert.Equal(["Window", "From s", "Requests", "Failed", "Avg", "80%", "90%", "95%", "Min", "Max"], windows[0]);
        Assert.Equal(6, windows.Count - 1);
        Assert.All(windows.Skip(1), w => Assert.Equal("20", w[2]));
        Assert.Equal(["1", "0", "20", "1", "10.500", "16.000", "18.000", "19.000", "1.000", "20.000"], windows[1]);
        Assert.Contains("#### Per 10-second window (ms)", markdown);
    }

    [Fact]
    public void HostileNamesAndUrlsStayText()
    {
        const string name = "x | y <script>alert(1)</script> **z**";
        var (run, digest) = Finished(name);
        var url = "http://127.0.0.1:9/a|b?<img src=x onerror=alert(1)>";
        var markdown = RunMarkdown.Of(run, digest, System.Text.Json.JsonSerializer.Serialize(new { url }));

        var html = MarkdownTables.Html(markdown);
        Assert.DoesNotContain("<script", html);
        Assert.DoesNotContain("<img", html);
        Assert.DoesNotContain("<strong", html);
        Assert.Contains(System.Net.WebUtility.HtmlEncode($"Run 42: {name} (http)"), html.Replace("&quot;", "\""));
        Assert.Equal(url, MarkdownTables.Find(markdown, "Field").Single(r => r[0] == "Target")[1]);
    }

    [Fact]
    public void AWindowLengthTheDigestLacksIsRefusedNamingTheOnesItHas()
    {
        var (run, digest) = Finished();
        var refused = Assert.Throws<ArgumentException>(() => RunMarkdown.Of(run, digest, "{}", windowSeconds: 7));
        Assert.Contains("10", refused.Message);
    }
}
