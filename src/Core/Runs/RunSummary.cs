using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// The few figures of a finished run that trends, regression flags and thresholds need, stored with the run
/// (<see cref="Run.SummaryJson"/>) so a benchmark's history does not re-read every sample.
/// </summary>
/// <remarks>The latency figures are corrected in an open-model run; the Service ones are its service time (null in a closed run, where they are the same).</remarks>
public sealed record RunSummary(
    int Count, int Errors, double RequestsPerSecond, long? MedianNs, long? P95Ns, long? P99Ns, double? MeanNs,
    long? ServiceMedianNs = null, long? ServiceP95Ns = null, long? ServiceP99Ns = null)
{
    public double ErrorPercent => Count == 0 ? 0 : 100.0 * Errors / Count;

    public static RunSummary From(RunStatistics s) =>
        new(s.Count, s.Errors, s.RequestsPerSecond, s.Latency?.P50Ns, s.Latency?.P95Ns, s.Latency?.P99Ns, s.Latency?.MeanNs,
            s.ServiceTime?.P50Ns, s.ServiceTime?.P95Ns, s.ServiceTime?.P99Ns);

    /// <summary>Median, p95 and p99 of the basis; a closed run's service time is its latency.</summary>
    public (long? Median, long? P95, long? P99) Of(LatencyBasis basis) =>
        basis == LatencyBasis.Service && ServiceMedianNs is not null ? (ServiceMedianNs, ServiceP95Ns, ServiceP99Ns) : (MedianNs, P95Ns, P99Ns);
}
