using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Runner.Execution;

/// <summary>Executes one kind of benchmark. Register one per kind; the runner picks it by <see cref="Kind"/>.</summary>
public interface IBenchmarkExecutor
{
    BenchmarkKind Kind { get; }

    /// <summary>
    /// Issues the run's requests and records every one of them through <paramref name="context"/>. Faults of
    /// the target are samples, not exceptions; throw only when the benchmark itself cannot proceed.
    /// </summary>
    Task ExecuteAsync(RunContext context, CancellationToken ct);
}
