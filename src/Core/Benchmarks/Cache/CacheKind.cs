using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Benchmarks.Cache;

/// <summary>Cache writes and reads, phase by phase, against Redis or an in-process cache (seed 004).</summary>
public sealed class CacheKind(IOptions<RunLimits> limits, NamedConnections connections) : BenchmarkKind<CacheParameters>
{
    public const string KindName = "cache";
    public override string Name => KindName;
    public override string Title => "Cache (seed 004)";
    public override string SeriesNoun => "phase";

    public override Task<Dictionary<string, string[]>> ValidateAsync(CacheParameters p, CancellationToken ct) =>
        Task.FromResult(CacheParametersValidator.Validate(p, limits.Value, connections.Exists));

    public override string Describe(CacheParameters p) =>
        $"cache {(p.Backend == CacheBackend.Redis ? $"redis '{p.Connection}'" : "memory")}: {string.Join(", ", PlannedSeries(p))}";

    public override IReadOnlyList<string> PlannedSeries(CacheParameters p) => (p.Phases ?? []).Select(phase => phase.Name()).ToList();

    /// <summary>Each phase runs the load once.</summary>
    public override PlannedLoad? Planned(CacheParameters p) => PlannedLoad.Of(p, Math.Max(1, p.Phases?.Count ?? 1));
}
