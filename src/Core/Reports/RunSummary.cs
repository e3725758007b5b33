using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Reports;

/// <summary>
/// The few figures of a finished run that the runs list, trends, the change rule, limits and its judged
/// outcome need, stored with the run (<see cref="Run.SummaryJson"/>) so that none of them reads its samples.
/// </summary>
/// <remarks>
/// The latency figures are corrected in an open-model run; the Service ones are its service time (null in a
/// closed run, where they are the same). Summaries stored before a field existed read it as null.
/// </remarks>
public sealed record RunSummary(
    int Count, int Errors, double RequestsPerSecond, long? MedianNs, long? P95Ns, long? P99Ns, double? MeanNs,
    long? ServiceMedianNs = null, long? ServiceP95Ns = null, long? ServiceP99Ns = null,
    double? SucceededPerSecond = null, string? TopError = null, int? TopErrorCount = null, IReadOnlyList<SeriesFigures>? Series = null)
{
    public double ErrorPercent => Count == 0 ? 0 : 100.0 * Errors / Count;

    /// <summary>Successful operations per second (attempted ones for a summary stored before this was kept).</summary>
    public double Throughput => SucceededPerSecond ?? RequestsPerSecond;

    /// <summary>A run's summary; with its series (variants, phases) when it has two or more, each with its own figures.</summary>
    public static RunSummary From(RunStatistics s, IReadOnlyList<SeriesStatistics>? series = null)
    {
        var (topError, topCount) = TopErrorOf(s);
        IReadOnlyList<SeriesFigures>? figures = series is { Count: >= 2 }
            ? series.Select(x => new SeriesFigures(x.Name, x.Statistics.Latency?.P50Ns, x.Statistics.Latency?.P99Ns)).ToList()
            : null;
        return new(s.Count, s.Errors, s.RequestsPerSecond, s.Latency?.P50Ns, s.Latency?.P95Ns, s.Latency?.P99Ns, s.Latency?.MeanNs,
            s.ServiceTime?.P50Ns, s.ServiceTime?.P95Ns, s.ServiceTime?.P99Ns, s.SucceededPerSecond, topError, topCount, figures);
    }

    /// <summary>Median, p95 and p99 of the basis; a closed run's service time is its latency.</summary>
    public (long? Median, long? P95, long? P99) Of(LatencyBasis basis) =>
        basis == LatencyBasis.Service && ServiceMedianNs is not null ? (ServiceMedianNs, ServiceP95Ns, ServiceP99Ns) : (MedianNs, P95Ns, P99Ns);

    /// <summary>The most frequent failure in words ("connection refused", "HTTP 503") and how often, or none.</summary>
    static (string?, int?) TopErrorOf(RunStatistics s)
    {
        if (s.ErrorsByKind.Count == 0) return (null, null);
        var (kind, count) = s.ErrorsByKind.MaxBy(e => e.Value);
        // An HTTP status error is named by its most frequent status when that status is all of them.
        if (kind is ErrorKind.HttpStatus or ErrorKind.Throttled && s.ErrorStatusCodes is { Count: > 0 } codes)
        {
            var (status, times) = codes.MaxBy(c => c.Value);
            if (times >= count) return ($"HTTP {status}", count);
        }
        return (Describe(kind), count);
    }

    public static string Describe(ErrorKind kind) => kind switch
    {
        ErrorKind.ConnectionRefused => "connection refused",
        ErrorKind.Timeout => "timeout",
        ErrorKind.ConnectionReset => "connection reset",
        ErrorKind.HttpStatus => "HTTP error status",
        ErrorKind.ServerError => "server error reply",
        ErrorKind.Throttled => "throttled",
        ErrorKind.CheckFailed => "check failed",
        ErrorKind.TargetRefused => "target refused",
        _ => "other error",
    };
}

/// <summary>
/// One series' own median and p99 (a variant's, a phase's): a run whose variants differ is listed by their range,
/// since the whole run's percentiles blend populations that were measured to be told apart. Null in summaries
/// stored before series were kept, and for runs with fewer than two series.
/// </summary>
public sealed record SeriesFigures(string Name, long? MedianNs, long? P99Ns);
