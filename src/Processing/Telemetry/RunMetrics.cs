using System.Collections.Concurrent;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Processing.Telemetry;

/// <summary>
/// One run's attributes on <see cref="RunnerMetrics"/>' instruments: <c>benchdash.run.id</c>,
/// <c>benchdash.benchmark</c> (the saved benchmark's name, "" for an ad hoc run), <c>benchdash.kind</c>, and
/// <c>benchdash.series</c> on samples that have one (a cache phase, a variant). No URL, header or other parameter:
/// those can carry secrets. The attribute arrays are built once per series and error kind, so recording a sample
/// allocates nothing (a boxed run id per sample would).
/// </summary>
public sealed class RunMetrics : IDisposable
{
    public const string RunId = "benchdash.run.id", Benchmark = "benchdash.benchmark", Kind = "benchdash.kind", Series = "benchdash.series", ErrorType = "error.type";

    readonly ConcurrentDictionary<(string Series, ErrorKind Error), KeyValuePair<string, object?>[]> tags = new();
    public RunMetrics(Run run)
    {
        RunTags = [new(RunId, run.Id), new(Benchmark, run.Benchmark?.Name ?? run.BenchmarkName ?? ""), new(Kind, run.Kind)];
        RunnerMetrics.Started(this);
    }

    internal KeyValuePair<string, object?>[] RunTags { get; }

    /// <summary>Operations started and not yet recorded (set by the load driver), read only when metrics are collected.</summary>
    internal Func<int> InFlightSource { get; set; } = () => 0;

    internal int InFlight => Math.Max(0, InFlightSource());

    /// <summary>An exporter listens to the runner's meter (telemetry is on in this process).</summary>
    public static bool Listened => RunnerMetrics.Operations.Enabled;

    /// <summary>
    /// The counters and histograms for one measured sample. Called by the sample writer as it drains samples, not by
    /// the workers that measure: with the SDK listening this takes several hundred ns (bench/README.md).
    /// </summary>
    public void Record(Sample sample)
    {
        if (sample.IsWarmup || !Listened) return;
        var series = TagsOf(sample.Series ?? "", ErrorKind.None);
        RunnerMetrics.Operations.Add(1, series);
        if (sample.Error != ErrorKind.None) RunnerMetrics.Errors.Add(1, TagsOf(sample.Series ?? "", sample.Error));
        if (!sample.Error.IsTransportError()) RunnerMetrics.Latency.Record(sample.LatencyNs / 1e9, series);
        if (sample.LagNs is { } lag) RunnerMetrics.Lag.Record(lag / 1e9, series);
    }

    ReadOnlySpan<KeyValuePair<string, object?>> TagsOf(string series, ErrorKind error) =>
        tags.TryGetValue((series, error), out var found) ? found : tags.GetOrAdd((series, error), key =>
        [
            .. RunTags,
            .. key.Series.Length > 0 ? [new KeyValuePair<string, object?>(Series, key.Series)] : Array.Empty<KeyValuePair<string, object?>>(),
            .. key.Error != ErrorKind.None ? [new KeyValuePair<string, object?>(ErrorType, System.Text.Json.JsonNamingPolicy.CamelCase.ConvertName(key.Error.ToString()))] : Array.Empty<KeyValuePair<string, object?>>(),
        ]);

    public void Dispose() => RunnerMetrics.Ended(this);
}
