using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// Finds a run's executor from its kind's name: the name gives the registered kind, the kind's parameters type
/// gives the <see cref="BenchmarkExecutor{TParameters}"/> of that type. The runner and an agent taking a shard
/// find it the same way; no executor declares a kind name of its own.
/// </summary>
public sealed class KindExecutors(IEnumerable<IBenchmarkKind> kinds, IEnumerable<IBenchmarkExecutor> executors)
{
    readonly Dictionary<string, IBenchmarkKind> byName = kinds.ToDictionary(k => k.Name, StringComparer.OrdinalIgnoreCase);

    /// <summary>The kind named <paramref name="kindName"/> and its executor here; null when either is missing.</summary>
    public (IBenchmarkKind Kind, IBenchmarkExecutor Executor)? Find(string? kindName) =>
        kindName is not null && byName.TryGetValue(kindName, out var kind) && executors.FirstOrDefault(e => e.ParametersType == kind.ParametersType) is { } executor
            ? (kind, executor)
            : null;

    /// <summary>Every executor here.</summary>
    public IEnumerable<IBenchmarkExecutor> All => executors;

    /// <summary>Registered kinds no executor here runs: their runs would fail.</summary>
    public IEnumerable<IBenchmarkKind> Unserved => byName.Values.Where(k => executors.All(e => e.ParametersType != k.ParametersType));
}
