using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics.Changes;

namespace BenchDashboard.Core.Reports;

/// <summary>How a run's outcome reads at a glance: its colour on the pages.</summary>
public enum OutcomeLevel
{
    /// <summary>Queued, running, or cancelled by a person: nothing to judge.</summary>
    Neutral,

    /// <summary>Completed, with few errors and its limits (if any) passed.</summary>
    Good,

    /// <summary>Completed, but with errors above the warning threshold, or the run that confirmed a regression in its history.</summary>
    Warning,

    /// <summary>Failed, interrupted, nothing measured, most operations failed, or its limits failed.</summary>
    Bad,
}

/// <summary>
/// A run's outcome judged, not just its status: a run whose every request was refused has "completed" as
/// status and is red here, saying why ("100 % connection refused"). Pure: the caller passes what is stored.
/// </summary>
public sealed record RunOutcome(OutcomeLevel Level, string Label, string? Reason)
{
    public static RunOutcome Judge(Run run, RunSummary? summary, RunsOptions options, ThresholdResult? limits = null, HistoryJudgement? history = null)
    {
        switch (run.Status)
        {
            case RunStatus.Queued or RunStatus.Running:
                return new(OutcomeLevel.Neutral, run.Status.ToApiName(), null);
            case RunStatus.Cancelled:
                return new(OutcomeLevel.Neutral, "cancelled", null);
            case RunStatus.Failed or RunStatus.Interrupted:
                return new(OutcomeLevel.Bad, run.Status.ToApiName(), FirstSentence(run.Error));
        }
        if (summary is null) return new(OutcomeLevel.Neutral, "completed", null);
        if (summary.Count == 0) return new(OutcomeLevel.Bad, "nothing measured", "The run completed without a single measured operation.");
        var errors = ErrorsInWords(summary);
        if (summary.ErrorPercent >= options.ErrorFailurePercent) return new(OutcomeLevel.Bad, "errors", errors);
        if (limits is { Passed: false }) return new(OutcomeLevel.Bad, "limits failed", ThresholdWords.Failures(limits));
        if (summary.ErrorPercent >= options.ErrorWarningPercent) return new(OutcomeLevel.Warning, "errors", errors);
        if (history is { Flagged: true }) return new(OutcomeLevel.Warning, "regression", string.Join("; ", history.Confirmed.Where(c => c.Evidence.Call == ChangeDirection.Regression).Select(ChangeWords.Confirmed)));
        return new(OutcomeLevel.Good, "completed", null);
    }

    /// <summary>"100 % connection refused", "12.0 % HTTP 503", or "3.1 % errors (mostly timeout)".</summary>
    static string? ErrorsInWords(RunSummary s)
    {
        if (s.Errors == 0) return null;
        var percent = s.ErrorPercent.ToString(s.ErrorPercent >= 99.95 || s.ErrorPercent < 0.05 ? "0.#" : "0.0", System.Globalization.CultureInfo.InvariantCulture) + " %";
        if (s.TopError is null) return $"{percent} errors";
        return s.TopErrorCount == s.Errors ? $"{percent} {s.TopError}" : $"{percent} errors (mostly {s.TopError})";
    }

    static string? FirstSentence(string? text) =>
        text is null ? null : text.IndexOf(". ", StringComparison.Ordinal) is var end and > 0 ? text[..(end + 1)] : text;
}

/// <summary>Section "Runs": how runs are judged and kept.</summary>
public sealed class RunsOptions
{
    public const string Section = "Runs";

    /// <summary>A completed run with at least this share of failed operations is amber.</summary>
    [System.ComponentModel.DataAnnotations.Range(0, 100)] public double ErrorWarningPercent { get; set; } = 1;

    /// <summary>A completed run with at least this share of failed operations is red.</summary>
    [System.ComponentModel.DataAnnotations.Range(0, 100)] public double ErrorFailurePercent { get; set; } = 50;

    /// <summary>Finished runs older than this many days are deleted with their samples; null keeps everything.</summary>
    [System.ComponentModel.DataAnnotations.Range(1, 36_500)] public int? KeepDays { get; set; }

    /// <summary>
    /// Finished runs older than this many days lose their samples but keep their digests (figures, windows, charts,
    /// sorted latencies for comparisons) and their place in trends; null keeps every sample.
    /// </summary>
    [System.ComponentModel.DataAnnotations.Range(1, 36_500)] public int? KeepSamplesDays { get; set; }
}
