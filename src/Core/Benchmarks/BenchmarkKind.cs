namespace BenchDashboard.Core.Benchmarks;

/// <summary>The kinds of benchmark the runner knows how to execute. Stored by name.</summary>
public enum BenchmarkKind
{
    /// <summary>HTTP request latency against a URL (seeds 000 and 002).</summary>
    Http,
}
