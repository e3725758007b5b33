using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Reports;

/// <summary>
/// A run's limits as they stood when it ended and the verdict they gave then, stored with the run: a limit added
/// or changed later must not rewrite how an earlier run was judged.
/// </summary>
/// <param name="Verdict">
/// Null when the benchmark had no limits then, or, for a few moments, while the run that ended is being summarised: the
/// limits are stored by the write that ends the run, the verdict with its summary.
/// </param>
public sealed record RecordedLimits(Thresholds Limits, ThresholdResult? Verdict)
{
    /// <summary>A benchmark's limits (its stored thresholds, null for none) as a run that ends now records them, before its verdict.</summary>
    public static string Standing(string? thresholdsJson) =>
        Json.Serialize(new RecordedLimits(thresholdsJson is null ? Thresholds.None : Json.Deserialize<Thresholds>(thresholdsJson), null));

    /// <summary>The recorded verdict, or the one the recorded limits give the run's figures while it is not stored yet.</summary>
    public ThresholdResult? VerdictOf(RunStatus status, RunSummary summary) => Verdict ?? Judge(Limits, status, summary);

    /// <summary>The verdict the limits give a run that ended with <paramref name="status"/> and these figures.</summary>
    public static ThresholdResult? Judge(Thresholds limits, RunStatus status, RunSummary summary) =>
        status == RunStatus.Completed ? ThresholdResult.Evaluate(limits, summary)
        : limits.HasLimits ? ThresholdResult.NotCompleted(status) : null;

    /// <summary>Whether two sets of limits judge alike: the change rule's settings are not limits.</summary>
    public static bool SameLimits(Thresholds a, Thresholds b) =>
        a.MaxMedianMs == b.MaxMedianMs && a.MaxP95Ms == b.MaxP95Ms && a.MaxP99Ms == b.MaxP99Ms
        && a.MaxErrorPercent == b.MaxErrorPercent && a.MinRequestsPerSecond == b.MinRequestsPerSecond
        && (!a.HasLimits || a.Latency == b.Latency);
}

/// <summary>
/// How a run stands by its limits: the verdict it was given when it ended (<see cref="Verdict"/>, which colours
/// the run) and, when the benchmark's limits have changed since, what today's would say (<see cref="Today"/>).
/// </summary>
/// <param name="Verdict">The recorded verdict; for a run that ended before limits were recorded, today's limits' verdict.</param>
/// <param name="Recorded">False for a run that ended before limits were recorded with runs: <see cref="Verdict"/> is then today's.</param>
/// <param name="Changed">The benchmark's limits differ from those the run was judged by.</param>
/// <param name="Today">Today's limits' verdict when they changed; null when they changed to none.</param>
public sealed record LimitsVerdict(ThresholdResult? Verdict, bool Recorded, bool Changed, ThresholdResult? Today)
{
    public static LimitsVerdict Of(RecordedLimits? recorded, Thresholds today, RunStatus status, RunSummary summary)
    {
        if (recorded is null) return new(RecordedLimits.Judge(today, status, summary), false, false, null);
        var verdict = recorded.VerdictOf(status, summary);
        if (RecordedLimits.SameLimits(recorded.Limits, today)) return new(verdict, true, false, null);
        return new(verdict, true, true, RecordedLimits.Judge(today, status, summary));
    }

    /// <summary>
    /// What a reader must know beside the verdict, in words: "today's limits would fail this run (median 5.786 ms,
    /// limit 1 ms)", or that the run's limits were not recorded; null when the verdict says it all.
    /// </summary>
    public string? Remark => this switch
    {
        { Recorded: false, Verdict: null } => null, // no limits then that anyone knows of, and none today: nothing to say
        { Recorded: false } => "limits not recorded when this run ended; judged by today's",
        { Changed: false } => null,
        { Today: null } => "the benchmark has no limits today",
        { Today.Passed: true } => "today's limits would pass this run",
        _ => "today's limits would fail this run (" + ThresholdWords.Failures(Today!) + ")",
    };
}
