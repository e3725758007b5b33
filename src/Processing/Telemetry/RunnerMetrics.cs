using System.Collections.Concurrent;
using System.Diagnostics.Metrics;

namespace BenchDashboard.Processing.Telemetry;

/// <summary>
/// The runner's live figures as OpenTelemetry instruments (meter <see cref="MeterName"/>): measured operations and
/// errors by kind (counters, whose rate is operations/s and errors/s), latency and the open model's lag (histograms
/// in seconds, exported as base-2 exponential histograms), and operations in flight (read when exported). Each
/// carries the run's attributes (<see cref="RunMetrics"/>). Nothing is recorded unless an exporter listens
/// (<see cref="TelemetrySetup"/>): with telemetry off a sample costs one check of <see cref="Instrument.Enabled"/>.
/// </summary>
public static class RunnerMetrics
{
    public const string MeterName = "BenchDashboard.Runner";

    static readonly Meter Meter = new(MeterName, typeof(RunnerMetrics).Assembly.GetName().Version?.ToString());

    internal static readonly Counter<long> Operations = Meter.CreateCounter<long>(
        "benchdash.run.operations", "{operation}", "Measured operations completed (warm-up not counted), failed ones included.");

    internal static readonly Counter<long> Errors = Meter.CreateCounter<long>(
        "benchdash.run.errors", "{operation}", "Measured operations that failed, by error.type (the run's error kinds).");

    internal static readonly Histogram<double> Latency = Meter.CreateHistogram<double>(
        "benchdash.run.latency", "s", "Latency of measured operations that got an answer (in the open model, from the intended start).");

    internal static readonly Histogram<double> Lag = Meter.CreateHistogram<double>(
        "benchdash.run.open_model.lag", "s", "Open model: how late each measured operation started after its intended start.");

    /// <summary>The runs under way in this process, for the in-flight gauge: read when an exporter collects, never per sample.</summary>
    static readonly ConcurrentDictionary<RunMetrics, byte> Active = new();

    static RunnerMetrics() =>
        Meter.CreateObservableUpDownCounter("benchdash.run.in_flight", InFlight, "{operation}", "Operations started and not yet answered.");

    /// <summary>The names of the histograms exported as exponential (base-2) histograms.</summary>
    public static readonly string[] ExponentialHistograms = ["benchdash.run.latency", "benchdash.run.open_model.lag"];

    internal static void Started(RunMetrics run) => Active[run] = 0;

    internal static void Ended(RunMetrics run) => Active.TryRemove(run, out _);

    static IEnumerable<Measurement<int>> InFlight() =>
        Active.Keys.Select(run => new Measurement<int>(run.InFlight, run.RunTags));
}
