using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Executes one kind of benchmark. The runner finds every implementation in this assembly
/// (<see cref="RunnerServices.AddBenchRunner"/>) and picks one by <see cref="Kind"/>.
/// </summary>
public interface IBenchmarkExecutor
{
    /// <summary>The <see cref="IBenchmarkKind.Name"/> of the kind it executes.</summary>
    string Kind { get; }

    /// <summary>
    /// Issues the run's requests and records every one of them through <paramref name="context"/>. Faults of
    /// the target are samples, not exceptions; throw only when the benchmark itself cannot proceed.
    /// </summary>
    Task ExecuteAsync(RunContext context, CancellationToken ct);

    /// <summary>
    /// Why this process may not send the run's load, or null: a runner agent checks its shard against its own
    /// target policy before it says it is ready (issue 16), since it sends the traffic. The dashboard validated the
    /// run against its policy already; an agent's may be stricter.
    /// </summary>
    Task<string?> RefusalAsync(string parametersJson, CancellationToken ct) => Task.FromResult<string?>(null);
}
