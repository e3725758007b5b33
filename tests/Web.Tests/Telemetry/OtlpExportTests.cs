using BenchDashboard.TestSupport;
using BenchDashboard.TestSupport.Otlp;
using BenchDashboard.Web.Tests.Browser;
using BenchDashboard.Web.Tests.Deployment;

namespace BenchDashboard.Web.Tests.Telemetry;

/// <summary>
/// The published dashboard with its runner as a child process, exporting to a real OTLP/HTTP receiver started
/// here: the run's metrics must come from the runner (the process that measures) with the run's attributes and
/// exact counts, latency as an exponential histogram, and the dashboard's own request metrics from the dashboard.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class OtlpExportTests(PublishedOutput published)
{
    static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task ARunsMetricsArriveAtAnOtlpReceiverFromTheRunnerChild()
    {
        await using var receiver = await OtlpReceiver.StartAsync();
        await using var target = await KestrelTarget.StartAsync();
        await using var dashboard = await BrowserDashboard.StartAsync(published, settings: new()
        {
            ["Telemetry__OtlpEndpoint"] = receiver.Endpoint, ["Telemetry__ExportIntervalSeconds"] = "0.5",
        });

        // Two variants taking turns (about 1 s in all, so the in-flight gauge is exported while it runs): series "ok" answered, series "fail" a 500 each time; 30 of each, after 4 warm-up operations.
        var id = await dashboard.RunAsync(new
        {
            kind = "http", url = target.Url("/delay?ms=60").ToString(), requests = 30, concurrency = 2, warmupRequests = 4,
            variants = new object[] { new { name = "ok" }, new { name = "fail", url = target.Url("/status?code=500").ToString() } },
        });
        var ended = await dashboard.UntilEndedAsync(id);
        Assert.Equal("completed", ended.GetProperty("status").GetString());

        var run = id.ToString(System.Globalization.CultureInfo.InvariantCulture);
        bool Of(OtlpPoint p, string metric, string series) =>
            p.Metric == metric && p.Attributes.GetValueOrDefault("benchdash.run.id") == run && p.Attributes.GetValueOrDefault("benchdash.series") == series;

        // Cumulative sums: the latest point is the run's total once every measured operation is in (warm-up is not).
        var ok = await receiver.UntilAsync(p => Of(p, "benchdash.run.operations", "ok") && p.Sum == 30, Patience, "operations of series ok");
        Assert.Equal("benchdash-runner", ok.Service);
        Assert.Equal("http", ok.Attributes["benchdash.kind"]);
        Assert.Equal("", ok.Attributes["benchdash.benchmark"]); // an ad hoc run
        Assert.DoesNotContain(ok.Attributes, a => a.Value.Contains("127.0.0.1")); // no URL: parameters may carry secrets
        await receiver.UntilAsync(p => Of(p, "benchdash.run.operations", "fail") && p.Sum == 30, Patience, "operations of series fail");

        var errors = await receiver.UntilAsync(p => Of(p, "benchdash.run.errors", "fail") && p.Sum == 30, Patience, "errors of series fail");
        Assert.False(string.IsNullOrEmpty(errors.Attributes["error.type"]));
        Assert.DoesNotContain(receiver.Points, p => Of(p, "benchdash.run.errors", "ok"));

        var latency = await receiver.UntilAsync(p => Of(p, "benchdash.run.latency", "ok") && p.Count == 30, Patience, "latency of series ok");
        Assert.Equal(DataKind.ExponentialHistogram, latency.Kind);
        Assert.Equal("s", latency.Unit);
        Assert.NotNull(latency.Scale);
        // A 500 is an answer: its latency is measured too.
        await receiver.UntilAsync(p => Of(p, "benchdash.run.latency", "fail") && p.Count == 30, Patience, "latency of series fail");
        Assert.Contains(receiver.Points, p => p.Metric == "benchdash.run.in_flight" && p.Attributes.GetValueOrDefault("benchdash.run.id") == run);

        // The dashboard's own ASP.NET Core metrics come from the dashboard; it measured no run, so it sent none.
        var requests = await receiver.UntilAsync(p => p.Service == "benchdash-dashboard" && p.Metric == "http.server.request.duration" && p.Count > 0, Patience, "the dashboard's request durations");
        Assert.Equal(DataKind.Histogram, requests.Kind);
        Assert.DoesNotContain(receiver.Points, p => p.Service == "benchdash-dashboard" && p.Metric.StartsWith("benchdash.run.", StringComparison.Ordinal));
        Assert.Equal(0, receiver.Undecodable);
    }
}
