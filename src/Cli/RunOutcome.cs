using System.Text.Json;

namespace BenchDashboard.Cli;

/// <summary>How an ended run reads to a pipeline: its verdict and the exit code that carries it.</summary>
public static class RunOutcome
{
    static readonly string[] FinalStatuses = ["completed", "failed", "cancelled", "interrupted"];

    public static bool IsFinal(string? status) => status is not null && FinalStatuses.Contains(status);

    /// <summary>
    /// 0 completed and passed, 1 a limit failed or the run confirmed a regression in its benchmark's history (the
    /// dashboard's change rule: once per change, not on every run after it), 2 it did not complete or the dashboard
    /// judged it bad without limits (nothing measured, most operations failed: a target that answers nothing).
    /// </summary>
    public static int ExitCodeOf(JsonElement run)
    {
        if (run.String("status") != "completed") return ExitCodes.Error;
        if (run.Field("outcome") is { } outcome && outcome.String("level") == "bad" && outcome.String("label") != "limits failed") return ExitCodes.Error;
        if (run.Field("thresholds") is { } limits && limits.Boolean("passed") == false) return ExitCodes.Failed;
        if (run.Field("regression") is { } regression && regression.Boolean("flagged") == true) return ExitCodes.Failed;
        return ExitCodes.Passed;
    }

    public static string VerdictOf(int exitCode) => exitCode switch
    {
        ExitCodes.Passed => "passed",
        ExitCodes.Failed => "failed",
        _ => "error",
    };
}
