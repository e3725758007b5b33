using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Notifications;

/// <summary>
/// Which finished runs notify their benchmark's webhooks, and why, from the run's judged
/// <see cref="RunOutcome"/>: a run that failed or was interrupted, one whose outcome is bad (its limits failed,
/// most operations failed, nothing measured) and one flagged as a regression. Completed runs that pass, runs
/// with only a few errors and cancelled runs send nothing.
/// </summary>
public static class WebhookEvent
{
    public const string Failed = "failed", Interrupted = "interrupted", ThresholdsFailed = "thresholdsFailed", Regression = "regression";

    /// <summary>The event's name, or null when the run notifies no one.</summary>
    /// <remarks>
    /// The regression flag is read from the check itself: the outcome names only its first finding, and a run
    /// with a few errors (amber for those) that is also much slower than its baseline still regressed.
    /// </remarks>
    public static string? Of(Run run, RunOutcome outcome, Statistics.RegressionCheck? regression) => run.Status switch
    {
        RunStatus.Failed => Failed,
        RunStatus.Interrupted => Interrupted,
        RunStatus.Completed when outcome.Label == "limits failed" => ThresholdsFailed,
        RunStatus.Completed when outcome.Level == OutcomeLevel.Bad => Failed, // most operations failed, or none measured
        RunStatus.Completed when regression is { IsFlagged: true } => Regression,
        _ => null,
    };
}

/// <summary>The JSON body of a webhook: what a chat message or a pipeline needs, and a link to the run's page.</summary>
public sealed record WebhookPayload(
    string Event, long RunId, WebhookBenchmark Benchmark, string Status, string Outcome, string? Why,
    double? P50Ms, double? P99Ms, double? ErrorPercent, long? EndedUtcMs, string RunUrl);

public sealed record WebhookBenchmark(int Id, string Name, string Kind);
