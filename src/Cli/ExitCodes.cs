namespace BenchDashboard.Cli;

/// <summary>What a pipeline gates on.</summary>
public static class ExitCodes
{
    /// <summary>The run completed and passed its limits and confirmed no regression (or the verb did what it was asked).</summary>
    public const int Passed = 0;

    /// <summary>The run completed, but a limit failed or it confirmed a regression in its benchmark's history.</summary>
    public const int Failed = 1;

    /// <summary>The run failed, was cancelled or interrupted, or could not start (refused input, wrong key, no dashboard).</summary>
    public const int Error = 2;
}

/// <summary>A verb that cannot go on: the message is printed as it is, and the tool exits with <see cref="ExitCode"/>.</summary>
public sealed class CliException(string message, int exitCode = ExitCodes.Error) : Exception(message)
{
    public int ExitCode { get; } = exitCode;
}
