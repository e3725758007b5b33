using BenchDashboard.Core.Benchmarks;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Kinds.Cache;

/// <summary>Cache writes and reads, phase by phase, against Redis or an in-process cache (serverless cache latency and rate limits).</summary>
public sealed class CacheKind(IOptions<RunLimits> limits, NamedConnections connections) : BenchmarkKind<CacheParameters>
{
    public const string KindName = "cache";
    public override string Name => KindName;
    public override string Title => "Cache";
    public override string SeriesNoun => "phase";

    public override Task<Dictionary<string, string[]>> ValidateAsync(CacheParameters p, CancellationToken ct) =>
        Task.FromResult(CacheParametersValidator.Validate(p, limits.Value, connections.Exists));

    public override string Describe(CacheParameters p) =>
        $"cache {Backend(p)}: {string.Join(", ", (p.Phases ?? []).Select(phase => phase.Name()))}"
        + (p.Variants is { Count: > 0 } ? $", variants {string.Join(", ", p.Resolved().Select(v => $"{v.Name} ({Backend(v.Parameters)}, {v.Parameters.ValueBytes:N0} B)"))} interleaved" : "");

    static string Backend(CacheParameters p) => p.Backend == CacheBackend.Redis ? $"redis '{p.Connection}'" : "memory";

    /// <summary>The phases; with variants, each phase's variants ("A/write", "B/write", "A/read-same", …).</summary>
    public override IReadOnlyList<string> PlannedSeries(CacheParameters p) => p.Series();

    public override IReadOnlyList<(string Name, CacheParameters Parameters)> SeparateVariants(CacheParameters p) =>
        p.Resolved().Select(v => (v.Name, v.Parameters with { InterleaveBlock = 1, Setting = v.Name })).ToList();

    /// <summary>Each phase runs the load once.</summary>
    public override PlannedLoad? Planned(CacheParameters p) => PlannedLoad.Of(p, Math.Max(1, p.Phases?.Count ?? 1));

    public override IReadOnlyList<string> Connections(CacheParameters p) =>
        (p.Variants is { Count: > 0 } ? p.Resolved().Select(v => v.Parameters) : [p])
            .Where(v => v.Backend != CacheBackend.Memory && v.Connection is { Length: > 0 }).Select(v => v.Connection!).Distinct().ToList();

    public override CacheParameters IdenticalVariants(CacheParameters plain) => plain with { Variants = [new() { Name = "A" }, new() { Name = "B" }], InterleaveBlock = 1 };

    public override IReadOnlyList<DemoBenchmark> Demos(string dashboard) =>
        [new("Demo: cache writes and reads, in-process", new CacheParameters { Requests = 1000, KeyCount = 100 })];
}
