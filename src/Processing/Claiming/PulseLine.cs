using BenchDashboard.Core;

namespace BenchDashboard.Processing.Claiming;

/// <summary>
/// The line a runner child writes to standard output every second, <c>@pulse {json}</c>: its loop's
/// <see cref="RunnerPulse"/>, which the dashboard that started it mirrors for its health check.
/// </summary>
public static class PulseLine
{
    const string Prefix = "@pulse ";

    public static string Write(RunnerPulse pulse) => Prefix + Json.Serialize(new Report(pulse.LastBeat, pulse.Failure?.Reason, pulse.Failure?.Since));

    /// <summary>Mirrors the pulse <paramref name="line"/> carries into <paramref name="mirror"/>; false for any other line (the child's log).</summary>
    public static bool TryMirror(string line, RunnerPulse mirror)
    {
        if (!line.StartsWith(Prefix, StringComparison.Ordinal)) return false;
        try
        {
            var report = Json.Deserialize<Report>(line[Prefix.Length..]);
            mirror.Mirror(report.LastBeat, report.Failure is null ? null : new RunnerFailure(report.Failure, report.FailingSince ?? DateTimeOffset.UtcNow));
            return true;
        }
        catch (System.Text.Json.JsonException)
        {
            return false;
        }
    }

    /// <summary>When the loop last passed, and why it fails while it does.</summary>
    sealed record Report(DateTimeOffset? LastBeat, string? Failure, DateTimeOffset? FailingSince);
}
