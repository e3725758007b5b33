namespace BenchDashboard.Core.Runs;

/// <summary>Lifecycle: Queued → Running → Completed | Failed | Cancelled; Interrupted for runs a crash left behind.</summary>
public enum RunStatus
{
    /// <summary>Accepted and waiting for a runner to claim it.</summary>
    Queued,
    /// <summary>Claimed by a runner, which keeps <see cref="Run.HeartbeatUtcMs"/> fresh while it measures.</summary>
    Running,
    /// <summary>Finished; every request is accounted for in the samples (errors included).</summary>
    Completed,
    /// <summary>The benchmark could not run or stopped on an unexpected fault; see <see cref="Run.Error"/>.</summary>
    Failed,
    /// <summary>Cancelled by a user; samples taken before the cancel are kept.</summary>
    Cancelled,
    /// <summary>Was running when its runner died (stale heartbeat); samples written before the crash are kept.</summary>
    Interrupted,
}

public static class RunStatusExtensions
{
    public static bool IsFinal(this RunStatus status) => status is not (RunStatus.Queued or RunStatus.Running);

    /// <summary>The lower-case name used by the API and in URLs.</summary>
    public static string ToApiName(this RunStatus status) => status.ToString().ToLowerInvariant();
}
