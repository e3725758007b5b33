using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// Everything the summary table shows for one run, computed once from its samples (pure, no I/O).
/// Accounting: every measured (non-warm-up) request is in <see cref="Count"/>; those with any error are in
/// <see cref="Errors"/> as well. Latency percentiles cover measured requests that got a complete response
/// (any status); transport failures have no latency, only a time-to-failure, so they are counted, not ranked.
/// </summary>
public sealed record RunStatistics(
    int Count,
    int Errors,
    IReadOnlyDictionary<ErrorKind, int> ErrorsByKind,
    int WarmupCount,
    long ElapsedNs,
    long TotalBytes,
    /// <summary>Operations attempted per second, failed ones included; see <see cref="SucceededPerSecond"/>.</summary>
    double RequestsPerSecond,
    double BytesPerSecond,
    LatencyLadder? Latency,
    LatencyLadder? Connect,
    LatencyLadder? Waiting,
    LatencyLadder? Processing,
    ResponseClasses Classes,
    ColdStart? Cold,
    LatencyLadder? ServiceTime = null,
    LatencyLadder? Lag = null,
    IReadOnlyDictionary<int, int>? ErrorStatusCodes = null)
{
    /// <summary>Operations that succeeded per second: the throughput (a refused connection is not served).</summary>
    public double SucceededPerSecond => ElapsedNs > 0 ? (Count - Errors) / (ElapsedNs / 1e9) : 0;

    /// <summary>An open-model run: <see cref="Latency"/> is corrected (from the intended start), <see cref="ServiceTime"/> from the actual one.</summary>
    public bool IsOpenModel => Lag is not null;

    /// <param name="elapsedNs">
    /// The time the samples took, when it is not their wall-clock span: a series interleaved with others
    /// (<see cref="SeriesStatistics"/>) shares the run's time with them.
    /// </param>
    public static RunStatistics From(IReadOnlyList<Sample> samples, long? elapsedNs = null)
    {
        var measured = samples.Where(s => !s.IsWarmup).ToList();
        var answered = measured.Where(s => !s.Error.IsTransportError()).ToList();

        long elapsed = 0;
        if (elapsedNs is { } given) elapsed = given;
        else if (measured.Count > 0)
            elapsed = measured.Max(s => s.OffsetNs + s.LatencyNs) - measured.Min(s => s.OffsetNs);
        var bytes = measured.Sum(s => s.Bytes);
        var seconds = elapsed / 1e9;

        return new RunStatistics(
            Count: measured.Count,
            Errors: measured.Count(s => s.Error != ErrorKind.None),
            ErrorsByKind: measured.Where(s => s.Error != ErrorKind.None).GroupBy(s => s.Error).ToDictionary(g => g.Key, g => g.Count()),
            WarmupCount: samples.Count - measured.Count,
            ElapsedNs: elapsed,
            TotalBytes: bytes,
            RequestsPerSecond: seconds > 0 ? measured.Count / seconds : 0,
            BytesPerSecond: seconds > 0 ? bytes / seconds : 0,
            Latency: LatencyLadder.From(answered.Select(s => s.LatencyNs)),
            Connect: LatencyLadder.From(answered.Where(s => s.ConnectNs.HasValue).Select(s => s.ConnectNs!.Value)),
            Waiting: LatencyLadder.From(answered.Where(s => s.HeadersNs.HasValue).Select(s => s.HeadersNs!.Value - (s.ConnectNs ?? 0))),
            // Connection times are the request's own: from its actual start, whatever the model.
            Processing: LatencyLadder.From(answered.Select(s => s.LatencyNs - (s.LagNs ?? 0) - (s.ConnectNs ?? 0))),
            Classes: ClassesOf(measured),
            Cold: ColdStart.From(samples),
            ServiceTime: LatencyLadder.From(answered.Where(s => s.LagNs.HasValue).Select(s => s.LatencyNs - s.LagNs!.Value)),
            Lag: LatencyLadder.From(measured.Where(s => s.LagNs.HasValue).Select(s => s.LagNs!.Value)),
            ErrorStatusCodes: measured.Where(s => s.Error != ErrorKind.None && s.StatusCode is not null).GroupBy(s => s.StatusCode!.Value).ToDictionary(g => g.Key, g => g.Count()));
    }

    /// <summary>
    /// Separate runs of the same thing taken as one: counts, bytes and time added up (so rates are over the time
    /// all of them ran), latency ranked over <paramref name="pooledLatencies"/>; the connection ladders, which
    /// a comparison does not show, are left out.
    /// </summary>
    public static RunStatistics Pooled(IReadOnlyList<RunStatistics> runs, IReadOnlyList<long> pooledLatencies)
    {
        var elapsed = runs.Sum(r => r.ElapsedNs);
        var count = runs.Sum(r => r.Count);
        var bytes = runs.Sum(r => r.TotalBytes);
        var seconds = elapsed / 1e9;
        static IReadOnlyDictionary<TKey, int> Added<TKey>(IEnumerable<IReadOnlyDictionary<TKey, int>?> all) where TKey : notnull =>
            all.Where(d => d is not null).SelectMany(d => d!).GroupBy(e => e.Key).ToDictionary(g => g.Key, g => g.Sum(e => e.Value));
        return new RunStatistics(count, runs.Sum(r => r.Errors), Added(runs.Select(r => r.ErrorsByKind)), runs.Sum(r => r.WarmupCount),
            elapsed, bytes, seconds > 0 ? count / seconds : 0, seconds > 0 ? bytes / seconds : 0,
            LatencyLadder.From(pooledLatencies), null, null, null,
            new ResponseClasses(runs.Sum(r => r.Classes.Status1xx), runs.Sum(r => r.Classes.Status2xx), runs.Sum(r => r.Classes.Status3xx),
                runs.Sum(r => r.Classes.Status4xx), runs.Sum(r => r.Classes.Status5xx), runs.Sum(r => r.Classes.Errors)),
            runs[0].Cold, ErrorStatusCodes: Added(runs.Select(r => r.ErrorStatusCodes)));
    }

    static ResponseClasses ClassesOf(List<Sample> measured)
    {
        int c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, errors = 0;
        foreach (var s in measured)
        {
            if (s.Error.IsTransportError()) { errors++; continue; }
            if (s.StatusCode is null) continue; // not HTTP (a cache operation): no status class
            switch (s.StatusCode / 100)
            {
                case 1: c1++; break;
                case 2: c2++; break;
                case 3: c3++; break;
                case 4: c4++; break;
                default: c5++; break;
            }
        }
        return new ResponseClasses(c1, c2, c3, c4, c5, errors);
    }
}

/// <summary>
/// Seed 002's lesson: the first request (411 ms, cache empty) and the warm rest (0.8 ms) are different
/// populations. <see cref="First"/> is the run's very first request, warm-up or not; <see cref="WarmRest"/>
/// ranks the measured requests after it.
/// </summary>
public sealed record ColdStart(Sample First, LatencyLadder? WarmRest)
{
    public static ColdStart? From(IReadOnlyList<Sample> samples)
    {
        if (samples.Count == 0) return null;
        var first = samples.MinBy(s => s.Index)!;
        var rest = samples.Where(s => s.Index != first.Index && !s.IsWarmup && !s.Error.IsTransportError());
        return new ColdStart(first, LatencyLadder.From(rest.Select(s => s.LatencyNs)));
    }
}
