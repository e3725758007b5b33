using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Tests.Statistics;

public class OpenModelStatisticsTests
{
    const long Ms = 1_000_000;

    /// <summary>An open-model sample: due at <paramref name="dueMs"/>, sent <paramref name="lagMs"/> later, answered after <paramref name="serviceMs"/>.</summary>
    static Sample Open(int index, double dueMs, double lagMs, double serviceMs, ErrorKind error = ErrorKind.None) => new()
    {
        Index = index, OffsetNs = (long)(dueMs * Ms), LagNs = (long)(lagMs * Ms), LatencyNs = (long)((lagMs + serviceMs) * Ms), Error = error,
    };

    static readonly List<Sample> Stalled =
    [
        Open(0, 0, 0.1, 2), Open(1, 100, 0.1, 2), Open(2, 200, 0.1, 700), // the service stalls for this one…
        Open(3, 300, 600, 2), Open(4, 400, 500, 2), Open(5, 1100, 0.2, 2), // …and these waited for it
    ];

    [Fact]
    public void TheLatencyIsCorrectedAndTheServiceTimeAndLagAreBesideIt()
    {
        var s = RunStatistics.From(Stalled);

        Assert.True(s.IsOpenModel);
        Assert.InRange(s.Latency!.MaxNs, 700_099_999, 700_100_001); // the stalled one: 0.1 ms late, 700 ms served
        Assert.InRange(s.Latency.ValueAt(800), 602 * Ms - 1, 602 * Ms + 1); // the next: 600 ms waiting, 2 ms served
        Assert.Equal(700 * Ms, s.ServiceTime!.MaxNs);
        Assert.Equal(2 * Ms, s.ServiceTime.P50Ns);
        Assert.Equal(600 * Ms, s.Lag!.MaxNs);
        // Connection phases are the request's own: processing has no lag in it.
        Assert.Equal(700 * Ms, s.Processing!.MaxNs);
    }

    [Fact]
    public void AClosedRunHasNeitherServiceTimeNorLag()
    {
        var s = RunStatistics.From([new Sample { Index = 0, LatencyNs = 5 * Ms }, new Sample { Index = 1, OffsetNs = 5 * Ms, LatencyNs = 6 * Ms }]);

        Assert.False(s.IsOpenModel);
        Assert.Null(s.ServiceTime);
        Assert.Null(s.Lag);
        Assert.Null(OpenLoadReport.From([new Sample { LatencyNs = 1 }]));
    }

    [Fact]
    public void TheReportCountsDueAndStartedPerSecondAndTheLateOnes()
    {
        var report = OpenLoadReport.From(Stalled)!;

        // Due: 0, 100, 200, 300, 400 ms in second 0 and 1,100 ms in second 1; started: 400 + 500 = 900 ms and 300 + 600 = 900 ms stay in second 0.
        Assert.Equal([new SecondRate(0, 5, 5), new SecondRate(1, 1, 1)], report.PerSecond);
        Assert.Equal(2, report.Late); // only those more than 1 ms late
        Assert.Equal(600 * Ms, report.Lag!.MaxNs);

        // Seconds count from the first intended start; one started in the next second.
        var spilled = OpenLoadReport.From([Open(0, 0, 0, 1), Open(1, 900, 200, 1), Open(2, 950, 10, 1)])!;
        Assert.Equal([new SecondRate(0, 3, 2), new SecondRate(1, 0, 1)], spilled.PerSecond);
    }

    [Fact]
    public void TheServiceTimeBasisTurnsOpenSamplesIntoWhatWasActuallySent()
    {
        var service = LatencyBasis.Service.Apply(Stalled);

        Assert.Equal(400 * Ms + 500 * Ms, service[4].OffsetNs);
        Assert.Equal(2 * Ms, service[4].LatencyNs);
        Assert.All(service, s => Assert.Null(s.LagNs));
        Assert.Equal(500 * Ms, Stalled[4].LagNs); // a copy: the samples are unchanged
        Assert.Equal(700 * Ms, RunStatistics.From(service).Latency!.MaxNs);

        List<Sample> closed = [new Sample { LatencyNs = 3 }];
        Assert.Same(closed, LatencyBasis.Service.Apply(closed));
        Assert.Same(Stalled, LatencyBasis.Corrected.Apply(Stalled));
    }

    [Fact]
    public void ThresholdsJudgeTheLatencyTheyAreSetFor()
    {
        var summary = RunSummary.From(RunStatistics.From(Stalled));
        var corrected = ThresholdResult.Evaluate(new Thresholds { MaxP99Ms = 100 }, summary)!;
        var service = ThresholdResult.Evaluate(new Thresholds { MaxMedianMs = 5, Latency = LatencyBasis.Service }, summary)!;

        Assert.Equal([("p99Ms", false)], corrected.Checks.Select(c => (c.Metric, c.Passed)));
        Assert.Equal([("serviceMedianMs", true)], service.Checks.Select(c => (c.Metric, c.Passed)));

        // A closed run's service time is its latency.
        var closed = RunSummary.From(RunStatistics.From([new Sample { LatencyNs = 3 * Ms }]));
        Assert.Equal(3.0, ThresholdResult.Evaluate(new Thresholds { MaxMedianMs = 5, Latency = LatencyBasis.Service }, closed)!.Checks[0].Actual!.Value, 1e-9);
    }
}

public class TicksTests
{
    [Fact]
    public void NanosecondsAndTicksConvertBothWaysWithoutOverflowPastNineSeconds()
    {
        foreach (var ns in new[] { 0L, 1_000L, 9_300_000_000L, 600_000_000_000L, -5_000_000_000L })
        {
            var ticks = Ticks.FromNanoseconds(ns);
            Assert.Equal((double)ns * System.Diagnostics.Stopwatch.Frequency / 1e9, ticks, 1.0);
            Assert.InRange(Ticks.ToNanoseconds(ticks), ns - 100, ns); // a tick is 1 ns on Linux, 100 ns on Windows
        }
    }
}
