using System.Text.Json.Serialization;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>
/// How a completed run stood in its benchmark's history when it was judged, stored with the run so that every
/// page, the API, the webhooks and the command-line client read one judgement and a change is announced once:
/// by the run that confirmed it.
/// </summary>
/// <param name="LevelSinceRunId">The first run of the level this run belongs to (after any change it confirmed).</param>
/// <param name="ParameterChange">Its parameters differ from the previous run's: it starts a history of its own.</param>
/// <param name="Confirmed">The changes this run confirmed (almost always none, sometimes one).</param>
/// <param name="Pending">A possible change at the end of the history that is not confirmed (yet).</param>
/// <param name="NotJudged">Why the run is not in the history (nothing answered, so no percentiles); null when it is.</param>
public sealed record HistoryJudgement(
    int Version, long LevelSinceRunId, bool ParameterChange, IReadOnlyList<ConfirmedChange> Confirmed, PendingChange? Pending, string? NotJudged = null)
{
    /// <summary>Raised whenever the rule changes: judgements of an older version are made again, in order.</summary>
    public const int CurrentVersion = 1;

    /// <summary>The run confirmed a regression: it is flagged, its webhook sent and <c>benchdash</c> exits 1.</summary>
    [JsonIgnore]
    public bool Flagged => Confirmed.Any(c => c.Evidence.Call == ChangeDirection.Regression);

    /// <summary>A completed run without a single answered request: no percentiles to place in the history.</summary>
    public static HistoryJudgement NothingToJudge(long levelSinceRunId) =>
        new(CurrentVersion, levelSinceRunId, false, [], null, "no answered requests, so no percentiles to judge");
}

/// <summary>A change in level, confirmed by the run <paramref name="ConfirmedByRunId"/>.</summary>
/// <param name="SinceRunId">The first run at the new level.</param>
/// <param name="BeforeRunIds">The runs it was tested against (the level before, at most <see cref="ChangeSettings.SideRuns"/>).</param>
/// <param name="AfterRunIds">The runs at the new level when it was confirmed.</param>
public sealed record ConfirmedChange(long SinceRunId, long ConfirmedByRunId, IReadOnlyList<long> BeforeRunIds, IReadOnlyList<long> AfterRunIds, ChangeEvidence Evidence);

/// <summary>
/// A possible change at the end of the history: the last <paramref name="RunsSince"/> runs all beyond the current
/// level on <paramref name="Metric"/>, fewer than confirmation needs (<paramref name="WaitingFor"/> more). If the next
/// run comes back, the run was an outlier.
/// </summary>
public sealed record PendingChange(long SinceRunId, int RunsSince, int WaitingFor, ChangeDirection Direction, string Metric);

/// <summary>A benchmark's change rule: the practical margin and how many runs at a new level confirm it.</summary>
/// <param name="ConfidenceLevel">Of each percentile's runs' interval (<see cref="ChangeTest"/>).</param>
public sealed record ChangeSettings(
    double Margin = ChangeSettings.DefaultMargin, int ConfirmRuns = ChangeSettings.DefaultConfirmRuns, double ConfidenceLevel = ChangeSettings.DefaultConfidenceLevel)
{
    public const double DefaultMargin = Thresholds.DefaultChangeMarginPercent / 100;
    public const int DefaultConfirmRuns = Thresholds.DefaultConfirmRuns;
    public const double DefaultConfidenceLevel = 0.999;

    /// <summary>At most this many runs a side in a test: the level just before a change, not the whole past.</summary>
    public const int SideRuns = 20;

    /// <summary>The detectors look at this many recent runs: enough for the level before a change and the one after.</summary>
    public const int Window = 60;

    /// <summary>The rule a benchmark's thresholds set.</summary>
    public static ChangeSettings Of(Thresholds thresholds) => new(thresholds.ChangeMarginPercent / 100, thresholds.ConfirmRuns);
}
