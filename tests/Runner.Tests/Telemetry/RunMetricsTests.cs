using System.Diagnostics.Metrics;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Telemetry;

namespace BenchDashboard.Runner.Tests.Telemetry;

/// <summary>What one run's samples become on the runner's instruments, read with a MeterListener (what the SDK listens through).</summary>
public class RunMetricsTests
{
    sealed record Measured(string Instrument, double Value, Dictionary<string, object?> Tags);

    static (MeterListener Listener, List<Measured> Seen) Listen(long runId)
    {
        var seen = new List<Measured>();
        var listener = new MeterListener { InstrumentPublished = (instrument, l) => { if (instrument.Meter.Name == RunnerMetrics.MeterName) l.EnableMeasurementEvents(instrument); } };
        void Take(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var dictionary = tags.ToArray().ToDictionary(t => t.Key, t => t.Value);
            // Other tests' runs may be measured meanwhile: keep this run's only.
            if (Equals(dictionary.GetValueOrDefault(RunMetrics.RunId), runId)) lock (seen) seen.Add(new(instrument.Name, value, dictionary));
        }
        listener.SetMeasurementEventCallback<long>((i, v, t, _) => Take(i, v, t));
        listener.SetMeasurementEventCallback<int>((i, v, t, _) => Take(i, v, t));
        listener.SetMeasurementEventCallback<double>((i, v, t, _) => Take(i, v, t));
        listener.Start();
        return (listener, seen);
    }

    [Fact]
    public void MeasuredSamplesAreCountedByTheirSeriesAndErrorsByKindAndOnlyAnswersHaveALatency()
    {
        const long runId = 9_000_001;
        var (listener, seen) = Listen(runId);
        using (listener)
        using (var metrics = new RunMetrics(new Run { Id = runId, Kind = "cache", BenchmarkName = "nightly", ParametersJson = "{}" }))
        {
            metrics.Record(new Sample { IsWarmup = true, LatencyNs = 5_000_000, Series = "write" });
            metrics.Record(new Sample { LatencyNs = 2_000_000, Series = "write" });
            metrics.Record(new Sample { LatencyNs = 3_000_000, Series = "read-hit", LagNs = 1_000_000 });
            metrics.Record(new Sample { LatencyNs = 4_000_000, Series = "read-hit", Error = ErrorKind.Throttled });
            metrics.Record(new Sample { LatencyNs = 9_000_000, Series = "read-hit", Error = ErrorKind.Timeout });
        }

        Assert.Equal(4, seen.Count(m => m.Instrument == "benchdash.run.operations")); // warm-up is not counted
        Assert.Equal(3, seen.Count(m => m.Instrument == "benchdash.run.operations" && (string?)m.Tags[RunMetrics.Series] == "read-hit"));
        Assert.Equal(["throttled", "timeout"], seen.Where(m => m.Instrument == "benchdash.run.errors").Select(m => (string?)m.Tags[RunMetrics.ErrorType]).Order());
        // A timeout has no latency (no answer came); a throttled reply has one.
        Assert.Equal([0.002, 0.003, 0.004], seen.Where(m => m.Instrument == "benchdash.run.latency").Select(m => m.Value).Order());
        Assert.Equal(0.001, Assert.Single(seen, m => m.Instrument == "benchdash.run.open_model.lag").Value);
        Assert.All(seen, m =>
        {
            Assert.Equal("nightly", m.Tags[RunMetrics.Benchmark]);
            Assert.Equal("cache", m.Tags[RunMetrics.Kind]);
        });
    }

    [Fact]
    public void InFlightIsObservedWhileTheRunIsUnderWayAndNotAfter()
    {
        const long runId = 9_000_002;
        var (listener, seen) = Listen(runId);
        using (listener)
        {
            var metrics = new RunMetrics(new Run { Id = runId, Kind = "http", ParametersJson = "{}" }) { InFlightSource = () => 3 };
            listener.RecordObservableInstruments();
            Assert.Equal(3, Assert.Single(seen, m => m.Instrument == "benchdash.run.in_flight").Value);
            Assert.Equal("", seen[0].Tags[RunMetrics.Benchmark]); // an ad hoc run
            Assert.False(seen[0].Tags.ContainsKey(RunMetrics.Series));

            metrics.Dispose();
            listener.RecordObservableInstruments();
            Assert.Single(seen, m => m.Instrument == "benchdash.run.in_flight");
        }
    }
}
