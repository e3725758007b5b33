using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Tables;

/// <summary>Maps what the Table service answered to the error kinds the dashboard counts.</summary>
public static class TableErrorClassifier
{
    /// <summary>
    /// 429 and 503 (Table Storage's "ServerBusy") are throttling: the service is telling the client to slow
    /// down, which is a finding about the account's limits, not a broken request. Any other status from 300 up
    /// (400 bad request, 409 conflict, 412 precondition, 413 too large, …) is <see cref="ErrorKind.HttpStatus"/>.
    /// </summary>
    public static ErrorKind Classify(TableOutcome outcome) =>
        outcome.Succeeded ? ErrorKind.None : outcome.Status is 429 or 503 ? ErrorKind.Throttled : ErrorKind.HttpStatus;

    /// <summary>"409 EntityAlreadyExists: The specified entity already exists. (inside a batch's 202 answer)": one entry per cause.</summary>
    public static string Describe(TableOutcome outcome) =>
        $"{outcome.Status}{(outcome.ErrorCode is null ? "" : " " + outcome.ErrorCode)}{(outcome.Message is null ? "" : ": " + outcome.Message)}"
        + (outcome.BatchStatus is { } batch ? $" (inside a batch's {batch} answer)" : "");
}
