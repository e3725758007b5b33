namespace BenchDashboard.Core.Runs;

/// <summary>One second of a run under way, by when its operations completed: how many, how many failed, and its latency percentiles.</summary>
public sealed record LiveSecond(int Second, int Count, int Errors, long? P50Ns, long? P95Ns, long? P99Ns);

/// <summary>One variant (or phase) of a run under way so far: measured operations, errors and latency percentiles.</summary>
public sealed record LiveSeries(string Name, int Measured, int Errors, long? P50Ns, long? P95Ns, long? P99Ns);

/// <summary>A sample on the live sample-index chart (every k-th, k doubling as the run grows).</summary>
public readonly record struct LivePoint(int Index, long LatencyNs, bool Error);

/// <summary>
/// What a run under way looks like, from the runner's own in-memory aggregates (never from the stored
/// samples, so watching a run costs it nothing): written with each heartbeat (<see cref="Run.LiveJson"/>) and
/// read by the run page and <c>/api/runs/{id}/live</c>. Percentiles are approximate (within 0.1 %, HdrHistogram's 3 significant digits: see
/// <see cref="Statistics.LiveHistogram"/>); the exact figures come when the run ends.
/// </summary>
/// <param name="ElapsedNs">Since the run's first operation started.</param>
/// <param name="Measured">Measured operations completed (warm-up not counted); <see cref="Errors"/> of them failed.</param>
/// <param name="Seconds">The latest seconds (at most <see cref="MaxSeconds"/>); a viewer that polls keeps the earlier ones.</param>
/// <param name="Late">Open model: operations that started more than <see cref="Statistics.OpenLoadReport.LateNs"/> after they were due.</param>
/// <param name="Series">A run of variants or phases: each one's own figures, so the live view never shows only a blend.</param>
/// <param name="Iterations">A journey: its whole iterations measured so far, which the other figures (requests) leave out; null otherwise.</param>
public sealed record LiveSnapshot(
    long ElapsedNs, int Measured, int Warmup, int Errors, IReadOnlyDictionary<ErrorKind, int> ErrorsByKind,
    long? P50Ns, long? P95Ns, long? P99Ns, long? MaxNs, IReadOnlyList<LiveSecond> Seconds, IReadOnlyList<LivePoint> Points,
    int Late = 0, IReadOnlyList<LiveSeries>? Series = null, int? Iterations = null)
{
    public const int MaxSeconds = 120;
}
