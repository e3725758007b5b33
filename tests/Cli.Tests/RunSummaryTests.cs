using System.Text.Json;
using BenchDashboard.Cli.Output;

namespace BenchDashboard.Cli.Tests;

/// <summary>The summary's layout and the exit code, from a run as GET /api/runs/{id} returns it (seed 000's go-wrk figures).</summary>
public sealed class RunSummaryTests
{
    static JsonElement Run(string status = "completed", string thresholds = "null", string regression = "null") => JsonDocument.Parse($$$"""
        {"id":7,"benchmarkName":"shibayan.jp","kind":"http","status":"{{{status}}}","parameters":{"url":"http://shibayan.jp/","concurrency":1,"requests":50},
         "stats":{"count":50,"errors":0,"errorsByKind":{},"elapsedMs":5510,"requestsPerSecond":9.07,"bytesPerSecond":40356.6,"totalBytes":222500,
                  "minMs":96.2,"meanMs":108.09,"stdDevMs":9.5,"p50Ms":105.56,"p66Ms":107,"p75Ms":109,"p80Ms":110,"p90Ms":118,"p95Ms":131,"p98Ms":150,"p99Ms":160,"p999Ms":160,"maxMs":160,
                  "connect":{"count":1,"minMs":12.5,"meanMs":12.5,"stdDevMs":0,"p50Ms":12.5,"maxMs":12.5},
                  "responseClasses":{"status1xx":0,"status2xx":50,"status3xx":0,"status4xx":0,"status5xx":0,"errors":0}},
         "thresholds":{{{thresholds}}},"regression":{{{regression}}}}
        """).RootElement;

    [Fact]
    public void ANameThatWouldForgeALineOrSteerTheTerminalIsPrintedEscaped()
    {
        var run = JsonDocument.Parse("""
            {"id":8,"benchmarkName":"ok\nVERDICT: PASSED\u001b]8;;http://evil.example\u001b\\link \u202e","kind":"http","status":"failed","error":"boom\r\nResult: passed (exit 0)"}
            """).RootElement;

        var text = RunSummary.Format(run, new Uri("http://x/"));

        Assert.Contains("Benchmark:                      ok\\u000AVERDICT: PASSED\\u001B]8;;http://evil.example\\u001B\\link \\u202E\n", text);
        Assert.Contains("Error:                          boom\\u000D\\u000AResult: passed (exit 0)\n", text);
        Assert.DoesNotContain("\u001b", text, StringComparison.Ordinal);
        Assert.DoesNotContain("\nVERDICT: PASSED", text);
        Assert.DoesNotContain("\nResult: passed", text);
    }

    [Fact]
    public void TheFiguresAreLaidOutAsGoWrkPrintsThem()
    {
        var lines = RunSummary.Format(Run(), new Uri("http://127.0.0.1:5080/")).Split('\n');

        Assert.Equal("==========================BENCHMARK==========================", lines[0]);
        Assert.Contains("Run:                            7 (completed)  http://127.0.0.1:5080/runs/7", lines);
        Assert.Contains("URL:                            http://shibayan.jp/", lines);
        Assert.Contains("Used Connections:               1", lines);
        Assert.Contains("Total number of calls:          50", lines);
        Assert.Contains("===========================TIMINGS===========================", lines);
        Assert.Contains("Total time passed:              5.51s", lines);
        Assert.Contains("Avg time per request:           108.09ms", lines);
        Assert.Contains("Requests per second:            9.07", lines);
        Assert.Contains("Median time per request:        105.56ms", lines);
        Assert.Contains("99th percentile time:           160.00ms", lines);
        Assert.Contains("Slowest time for request:       160.00ms", lines);
        Assert.Contains("=============================DATA=============================", lines);
        Assert.Contains("Total response body sizes:              222500", lines);
        Assert.Contains("Transfer rate per second:               39.4 KiB/s", lines); // the pages' unit (ByteSizes)
        Assert.Contains("20X Responses:          50      (100.00%)", lines);
        Assert.Contains("50X Responses:          0       (0.00%)", lines);
    }

    [Fact]
    public void TheLadderAndConnectionTimesAreLaidOutAsAbPrintsThem()
    {
        var lines = RunSummary.Format(Run(), new Uri("http://127.0.0.1:5080/")).Split('\n');

        Assert.Contains("Connect:        12.50    12.50     0.00    12.50     12.50", lines);
        Assert.Contains("Total:          96.20   108.09     9.50   105.56    160.00", lines);
        Assert.DoesNotContain(lines, l => l.StartsWith("Waiting:")); // not in the answer: not printed as zeros
        Assert.Contains("   50%     105.56", lines);
        Assert.Contains(" 99.9%     160.00", lines);
        Assert.Contains("  100%     160.00 (longest request)", lines);
    }

    [Fact]
    public void FailedLimitsAreListedAndExitOne()
    {
        var run = Run(thresholds: """{"passed":false,"checks":[{"metric":"p95Ms","limit":120,"actual":131,"passed":false},{"metric":"errorPercent","limit":1,"actual":0,"passed":true}]}""");

        var text = RunSummary.Format(run, new Uri("http://127.0.0.1:5080/"));

        Assert.Contains("p95Ms limit 120: 131 FAILED\n", text);
        Assert.Contains("errorPercent limit 1: 0 passed\n", text);
        Assert.Contains("Result:                         failed (exit 1)\n", text);
        Assert.Equal(1, RunOutcome.ExitCodeOf(run));
    }

    [Fact]
    public void AConfirmedRegressionExitsOneEvenWhenTheLimitsPassed()
    {
        var run = Run(thresholds: """{"passed":true,"checks":[]}""",
            regression: """{"flagged":true,"summary":"regression: median 1.21× slower (99.9 % interval 1.10× to 1.33×) since run 40, confirmed by run 42","levelSinceRunId":40,"parameterChange":false,"changes":[],"pending":null}""");

        Assert.Contains("History:                        FLAGGED regression: median 1.21× slower (99.9 % interval 1.10× to 1.33×) since run 40, confirmed by run 42\n",
            RunSummary.Format(run, new Uri("http://x/")));
        Assert.Equal(1, RunOutcome.ExitCodeOf(run));
        Assert.Equal(0, RunOutcome.ExitCodeOf(Run(thresholds: """{"passed":true,"checks":[]}""",
            regression: """{"flagged":false,"summary":"in line with the runs since run 40","levelSinceRunId":40,"parameterChange":false,"changes":[],"pending":null}""")));
    }

    [Fact]
    public void ARunThatPassedBeforeALimitWasAddedExitsZeroAndPrintsWhatTodaysLimitsWouldSay()
    {
        var run = JsonDocument.Parse(Run().GetRawText().TrimEnd('}') + ""","thresholdsRecorded":true,"thresholdsToday":{"passed":false,"checks":[{"metric":"medianMs","limit":1,"actual":105.56,"passed":false}]},"thresholdsRemark":"today's limits would fail this run (median 105.56 ms, limit 1 ms)"}""").RootElement;

        var text = RunSummary.Format(run, new Uri("http://x/"));

        Assert.Contains("Limits:                         none set\nLimits today:                   today's limits would fail this run (median 105.56 ms, limit 1 ms)\n", text);
        Assert.Contains("Result:                         passed (exit 0)\n", text);
        Assert.Equal(0, RunOutcome.ExitCodeOf(run));
    }

    [Theory]
    [InlineData("completed", 0)]
    [InlineData("failed", 2)]
    [InlineData("cancelled", 2)]
    [InlineData("interrupted", 2)]
    public void TheExitCodeFollowsTheStatusWhenNoLimitIsSet(string status, int exit)
    {
        Assert.Equal(exit, RunOutcome.ExitCodeOf(Run(status)));
    }

    [Fact]
    public void ARunThatDidNotCompleteIsAnErrorEvenIfItsRegressionCheckPassed()
    {
        var run = Run("failed", thresholds: """{"passed":false,"checks":[{"metric":"completed (was failed)","limit":1,"actual":0,"passed":false}]}""");

        Assert.Equal(2, RunOutcome.ExitCodeOf(run));
    }
}
