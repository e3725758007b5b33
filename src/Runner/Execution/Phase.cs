using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Runner.Execution;

/// <summary>One call of the <see cref="LoadDriver"/> within a run: its load and operation, and unmeasured set-up before them.</summary>
/// <param name="Name">The phase's name, for the open model's notes when a run has several; null for a run of one.</param>
public sealed record Phase(string? Name, ILoadParameters Load, ILoadOperation Operation)
{
    /// <summary>How many variants go round (1 for none); each has its own operations, numbered from 0.</summary>
    public int Variants { get; init; } = 1;

    /// <summary>Operations of one variant in a row before the next variant's turn.</summary>
    public int Block { get; init; } = 1;

    /// <summary>Work before the phase that is not measured (writing the keys its reads find); may throw to end the run.</summary>
    public Func<CancellationToken, Task>? SetUpAsync { get; init; }
}

/// <summary>
/// A kind's run as the <see cref="LoadDriver"/> runs it: set-up, the phases one after another, and a clean-up after
/// them however they ended (done, failed, cancelled).
/// </summary>
public sealed class LoadPlan
{
    /// <summary>What the phases need (clients, a folder); what it made before it failed is still cleaned up.</summary>
    public Func<CancellationToken, Task>? SetUpAsync { get; init; }

    /// <summary>
    /// Enumerated one at a time after the set-up, each once the phase before it is done: an iterator may prepare a
    /// phase from what the phases before left (the entries of a tree they wrote) and dispose of it after.
    /// </summary>
    public required IEnumerable<Phase> Phases { get; init; }

    /// <summary>
    /// Removes what the run left (keys, entities, files) and notes what it did. Its token ends after
    /// <see cref="LoadDriver.CleanUpBound"/>; a failure it does not note itself is noted for it, never thrown.
    /// </summary>
    public Func<CancellationToken, Task>? CleanUpAsync { get; init; }
}
