using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// The few figures of a finished run that trends, regression flags and thresholds need, stored with the run
/// (<see cref="Run.SummaryJson"/>) so a benchmark's history does not re-read every sample.
/// </summary>
public sealed record RunSummary(int Count, int Errors, double RequestsPerSecond, long? MedianNs, long? P95Ns, long? P99Ns, double? MeanNs)
{
    public double ErrorPercent => Count == 0 ? 0 : 100.0 * Errors / Count;

    public static RunSummary From(RunStatistics s) =>
        new(s.Count, s.Errors, s.RequestsPerSecond, s.Latency?.P50Ns, s.Latency?.P95Ns, s.Latency?.P99Ns, s.Latency?.MeanNs);
}
