using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// Produces a run's samples. A kind's executor is a <see cref="BenchmarkExecutor{TParameters}"/>: the runner finds
/// every one in its own assembly (the runner's <c>RunnerServices.AddKindExecutors</c>) and picks the one whose
/// <see cref="ParametersType"/> is the run's kind's (<see cref="KindExecutors"/>).
/// </summary>
public interface IBenchmarkExecutor
{
    /// <summary>The parameters record it executes; null for an executor handed a run explicitly (a run over agents).</summary>
    Type? ParametersType => null;

    /// <summary>
    /// Issues the run's requests and records every one of them through <paramref name="context"/>. Faults of
    /// the target are samples, not exceptions; throw only when the benchmark itself cannot proceed.
    /// </summary>
    Task ExecuteAsync(RunContext context, CancellationToken ct);

    /// <summary>
    /// Why this process may not send the run's load, or null: a runner agent checks its shard against its own
    /// target policy before it says it is ready, since it sends the traffic. The dashboard validated the run
    /// against its policy already; an agent's may be stricter.
    /// </summary>
    Task<string?> RefusalAsync(string parametersJson, CancellationToken ct) => Task.FromResult<string?>(null);

    /// <summary>
    /// Runs about <paramref name="operations"/> operations of this kind against something of this process's own (a
    /// loopback server, memory, a temporary folder) through the code a run measures with (the runner's <c>SelfWarmup</c>);
    /// how many were answered without error, or null when the kind has nothing of its own to measure.
    /// </summary>
    Task<int?> WarmUpAsync(int operations, CancellationToken ct) => Task.FromResult<int?>(null);
}

/// <summary>
/// The executor of a kind whose parameters are a <typeparamref name="TParameters"/> record, mirroring
/// <see cref="BenchmarkKind{TParameters}"/>: it gets the run's parameters as the kind read them, once
/// (<see cref="RunContext.Parameters"/>), and supplies its operation to a <see cref="LoadDriver"/>.
/// </summary>
public abstract class BenchmarkExecutor<TParameters> : IBenchmarkExecutor where TParameters : class
{
    public Type ParametersType => typeof(TParameters);

    public abstract Task ExecuteAsync(RunContext context, TParameters parameters, CancellationToken ct);

    /// <inheritdoc cref="IBenchmarkExecutor.RefusalAsync"/>
    public virtual Task<string?> RefusalAsync(TParameters parameters, CancellationToken ct) => Task.FromResult<string?>(null);

    /// <inheritdoc cref="IBenchmarkExecutor.WarmUpAsync"/>
    public virtual Task<int?> WarmUpAsync(int operations, CancellationToken ct) => Task.FromResult<int?>(null);

    public Task ExecuteAsync(RunContext context, CancellationToken ct) => ExecuteAsync(context, context.ParametersAs<TParameters>(), ct);

    Task<string?> IBenchmarkExecutor.RefusalAsync(string parametersJson, CancellationToken ct) =>
        RefusalAsync(Core.Json.Deserialize<TParameters>(parametersJson), ct);
}
