using System.ComponentModel.DataAnnotations;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>Hard ceilings on the size of one run, enforced before anything is queued. Section "RunLimits".</summary>
public sealed class RunLimits
{
    public const string Section = "RunLimits";

    [Range(1, int.MaxValue)] public int MaxRequests { get; set; } = 1_000_000;
    [Range(1, int.MaxValue)] public int MaxDurationSeconds { get; set; } = 600;
    [Range(1, 10_000)] public int MaxConcurrency { get; set; } = 256;
    [Range(1, int.MaxValue)] public int MaxWarmupRequests { get; set; } = 100_000;
    [Range(1, int.MaxValue)] public int MaxTimeoutMs { get; set; } = 120_000;

    /// <summary>
    /// Samples one run may store, warm-up included (52-80 bytes each in the database), and what bounds the runner's
    /// memory: it reads a run's samples at once when it builds the run's digest (about 0.4 GB at its peak per
    /// million, bench/README.md). A schedule that would pass it is refused; a closed run with a duration that
    /// reaches it stops there, completed, with a note saying so.
    /// </summary>
    [Range(1_000, int.MaxValue)] public int MaxSamplesPerRun { get; set; } = 1_000_000;

    /// <summary>The most runner agents one run may be spread over (<c>agents</c>).</summary>
    [Range(1, 64)] public int MaxAgentsPerRun { get; set; } = 16;
}
