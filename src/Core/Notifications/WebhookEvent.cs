using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Notifications;

/// <summary>
/// Which finished runs notify their benchmark's webhooks, and why, from the run's judged
/// <see cref="RunOutcome"/>: a run that failed or was interrupted, one whose outcome is bad (its limits failed,
/// most operations failed, nothing measured) and one that confirmed a regression in its benchmark's history (once
/// per change: only the run that confirmed it). Completed runs that pass, runs with only a few errors and
/// cancelled runs send nothing.
/// </summary>
public static class WebhookEvent
{
    public const string Failed = "failed", Interrupted = "interrupted", ThresholdsFailed = "thresholdsFailed", Regression = "regression";

    /// <summary>The event's name, or null when the run notifies no one.</summary>
    /// <remarks>
    /// The regression is read from the judgement itself: the outcome names only its first finding, and a run with a
    /// few errors (amber for those) that also confirmed a regression still announces it.
    /// </remarks>
    public static string? Of(Run run, RunOutcome outcome, Statistics.Changes.HistoryJudgement? history) => run.Status switch
    {
        RunStatus.Failed => Failed,
        RunStatus.Interrupted => Interrupted,
        RunStatus.Completed when outcome.Label == "limits failed" => ThresholdsFailed,
        RunStatus.Completed when outcome.Level == OutcomeLevel.Bad => Failed, // most operations failed, or none measured
        RunStatus.Completed when history is { Flagged: true } => Regression,
        _ => null,
    };
}

/// <summary>The JSON body of a webhook: what a chat message or a pipeline needs, and a link to the run's page.</summary>
/// <param name="Changes">For a "regression": each change the run confirmed, with its figures and a link to the comparison.</param>
public sealed record WebhookPayload(
    string Event, long RunId, WebhookBenchmark Benchmark, string Status, string Outcome, string? Why,
    double? P50Ms, double? P99Ms, double? ErrorPercent, long? EndedUtcMs, string RunUrl, IReadOnlyList<WebhookChange>? Changes = null);

/// <summary>
/// A confirmed change as a notice tells it: since which run, each percentile before and after with the change and
/// its interval (fractions: 0.21 is 21 % slower), and the compare page of the runs before against the runs after.
/// </summary>
public sealed record WebhookChange(string Direction, long SinceRunId, long ConfirmedByRunId, string Summary, double ConfidenceLevel, double Margin,
    IReadOnlyList<WebhookMetric> Metrics, IReadOnlyList<long> BeforeRunIds, IReadOnlyList<long> AfterRunIds, string CompareUrl);

public sealed record WebhookMetric(string Metric, double BeforeMs, double AfterMs, double Change, double Lower, double Upper, string Call);

public sealed record WebhookBenchmark(int Id, string Name, string Kind);
