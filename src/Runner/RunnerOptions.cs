using System.ComponentModel.DataAnnotations;

namespace BenchDashboard.Runner;

/// <summary>Section "Runner".</summary>
public sealed class RunnerOptions
{
    public const string Section = "Runner";

    /// <summary>Web only: host the runner inside the dashboard process (the default).</summary>
    public bool Embedded { get; set; } = true;

    /// <summary>
    /// Runs measured at the same time, by all runners on the database unless <see cref="ParallelLimit"/> says
    /// otherwise. One by default so runs do not disturb each other.
    /// </summary>
    [Range(1, 16)] public int MaxParallelRuns { get; set; } = 1;

    /// <summary>Whom <see cref="MaxParallelRuns"/> counts: every runner on the database (the default), or this runner only.</summary>
    public ParallelLimit ParallelLimit { get; set; } = ParallelLimit.Database;

    /// <summary>How often to look for queued runs and due schedules.</summary>
    [Range(10, 60_000)] public int PollIntervalMs { get; set; } = 1000;

    /// <summary>How often a running run's heartbeat, progress and cancel flag are synchronised with the database.</summary>
    [Range(50, 10_000)] public int HeartbeatIntervalMs { get; set; } = 1000;

    /// <summary>A running run whose heartbeat is older than this is taken to be orphaned by a crash.</summary>
    [Range(2, 3600)] public int StaleAfterSeconds { get; set; } = 30;

    /// <summary>Samples written per database transaction.</summary>
    [Range(1, 100_000)] public int SampleBatchSize { get; set; } = 5000;

    /// <summary>
    /// After storing a batch that was not full, wait this long before the next, so a steady trickle of samples
    /// is stored in a few larger transactions instead of one per sample (bench/README.md: cache, c=1).
    /// </summary>
    [Range(0, 5_000)] public int SampleFlushIntervalMs { get; set; } = 100;

    /// <summary>
    /// Samples held in memory waiting to be stored (144 bytes each with the open model's lag, measured: the default is about 138 MiB). When storing
    /// cannot keep up and the buffer is full, the run's load stops and the run fails, saying how many were lost.
    /// </summary>
    [Range(1_000, 50_000_000)] public int SampleBufferSize { get; set; } = 1_000_000;

    /// <summary>When storing samples has failed this long (a lock, a full or failing disk), the run's load stops.</summary>
    [Range(1, 3_600)] public int StorageStallSeconds { get; set; } = 20;

    /// <summary>After the load stopped, how long the writer keeps trying to store what it holds before counting it lost.</summary>
    [Range(1, 3_600)] public int StorageGiveUpSeconds { get; set; } = 60;
}

public enum ParallelLimit
{
    /// <summary>Runs of every runner sharing the database count: two runner processes never measure at once.</summary>
    Database,

    /// <summary>Only this runner's runs count: runners on separate machines measuring separate targets.</summary>
    Runner,
}
