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
        var table = SampleTable.Of(samples);
        return From(table, table.AllRows(), elapsedNs);
    }

    /// <summary>As <see cref="From(IReadOnlyList{Sample}, long?)"/>, over the rows <paramref name="rows"/> of a table, in their order.</summary>
    public static RunStatistics From(SampleTable t, int[] rows, long? elapsedNs = null)
    {
        var measured = SampleTable.Where(rows, r => !t.IsWarmup(r));
        bool Answered(int r) => !t.Error(r).IsTransportError();

        long elapsed = 0;
        if (elapsedNs is { } given) elapsed = given;
        else if (measured.Length > 0)
        {
            long from = long.MaxValue, to = long.MinValue;
            foreach (var r in measured)
            {
                from = Math.Min(from, t.OffsetNs(r));
                to = Math.Max(to, t.OffsetNs(r) + t.LatencyNs(r));
            }
            elapsed = to - from;
        }
        long bytes = 0;
        var errors = 0;
        // Counted in the order first met, as grouping them did: the stored digest's JSON keeps that order.
        var byKind = new Dictionary<ErrorKind, int>();
        var errorStatusCodes = new Dictionary<int, int>();
        foreach (var r in measured)
        {
            bytes += t.Bytes(r);
            if (t.Error(r) == ErrorKind.None) continue;
            errors++;
            byKind[t.Error(r)] = byKind.GetValueOrDefault(t.Error(r)) + 1;
            if (t.StatusCode(r) is { } code) errorStatusCodes[code] = errorStatusCodes.GetValueOrDefault(code) + 1;
        }
        var seconds = elapsed / 1e9;

        return new RunStatistics(
            Count: measured.Length,
            Errors: errors,
            ErrorsByKind: byKind,
            WarmupCount: rows.Length - measured.Length,
            ElapsedNs: elapsed,
            TotalBytes: bytes,
            RequestsPerSecond: seconds > 0 ? measured.Length / seconds : 0,
            BytesPerSecond: seconds > 0 ? bytes / seconds : 0,
            Latency: LatencyLadder.FromUnsorted(t.ScratchValues(measured, Answered, t.LatencyNs)),
            Connect: LatencyLadder.FromUnsorted(t.ScratchValues(measured, r => Answered(r) && t.ConnectNs(r).HasValue, r => t.ConnectNs(r)!.Value)),
            Waiting: LatencyLadder.FromUnsorted(t.ScratchValues(measured, r => Answered(r) && t.HeadersNs(r).HasValue, r => t.HeadersNs(r)!.Value - (t.ConnectNs(r) ?? 0))),
            // Connection times are the request's own: from its actual start, whatever the model.
            Processing: LatencyLadder.FromUnsorted(t.ScratchValues(measured, Answered, r => t.LatencyNs(r) - (t.LagNs(r) ?? 0) - (t.ConnectNs(r) ?? 0))),
            Classes: ClassesOf(t, measured),
            Cold: ColdStart.From(t, rows),
            ServiceTime: LatencyLadder.FromUnsorted(t.ScratchValues(measured, r => Answered(r) && t.LagNs(r).HasValue, r => t.LatencyNs(r) - t.LagNs(r)!.Value)),
            Lag: LatencyLadder.FromUnsorted(t.ScratchValues(measured, r => t.LagNs(r).HasValue, r => t.LagNs(r)!.Value)),
            ErrorStatusCodes: errorStatusCodes);
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

    static ResponseClasses ClassesOf(SampleTable t, int[] measured)
    {
        int c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, errors = 0;
        foreach (var r in measured)
        {
            if (t.Error(r).IsTransportError()) { errors++; continue; }
            if (t.StatusCode(r) is not { } status) continue; // not HTTP (a cache operation): no status class
            switch (status / 100)
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
        var table = SampleTable.Of(samples);
        return From(table, table.AllRows());
    }

    internal static ColdStart? From(SampleTable t, int[] rows)
    {
        if (rows.Length == 0) return null;
        var first = rows[0];
        foreach (var r in rows) if (t.Index(r) < t.Index(first)) first = r;
        var firstIndex = t.Index(first);
        var rest = t.ScratchValues(rows, r => t.Index(r) != firstIndex && !t.IsWarmup(r) && !t.Error(r).IsTransportError(), t.LatencyNs);
        return new ColdStart(t[first], LatencyLadder.FromUnsorted(rest));
    }
}
