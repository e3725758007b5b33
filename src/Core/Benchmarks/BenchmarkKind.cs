namespace BenchDashboard.Core.Benchmarks;

/// <summary>The kinds of benchmark the runner knows how to execute. Stored by name.</summary>
public enum BenchmarkKind
{
    /// <summary>HTTP request latency against a URL (seeds 000 and 002).</summary>
    Http,

    /// <summary>Cache writes and reads, phase by phase, against Redis or an in-process cache (seed 004).</summary>
    Cache,

    /// <summary>Many small files created, read, listed and deleted, and one large file, per directory (seed 001).</summary>
    FileSystem,
}
