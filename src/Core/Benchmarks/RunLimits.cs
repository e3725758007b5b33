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
}
