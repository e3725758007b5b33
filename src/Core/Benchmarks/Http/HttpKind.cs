using BenchDashboard.Core.Security;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Benchmarks.Http;

/// <summary>HTTP request latency against a URL (seeds 000 and 002).</summary>
public sealed class HttpKind(IOptions<RunLimits> limits, TargetPolicy targets) : BenchmarkKind<HttpParameters>
{
    public const string KindName = "http";
    public override string Name => KindName;
    public override string Title => "HTTP latency";
    public override string SampleNoun => "requests";
    public override string SeriesNoun => "variant";

    /// <summary>The fields, then whether the target may be reached at all (<see cref="TargetPolicy"/>).</summary>
    public override async Task<Dictionary<string, string[]>> ValidateAsync(HttpParameters p, CancellationToken ct)
    {
        var errors = HttpParametersValidator.Validate(p, limits.Value);
        if (!errors.ContainsKey("url") && await targets.CheckAsync(new Uri(p.Url), ct) is { } refused) errors["url"] = [refused];
        // Each variant's own URL is a target too.
        foreach (var (variant, i) in (p.Variants ?? []).Select((v, i) => (v, i)))
            if (variant?.Url is { } url && !errors.ContainsKey($"variants[{i}].url") && await targets.CheckAsync(new Uri(url), ct) is { } refusedVariant)
                errors[$"variants[{i}].url"] = [refusedVariant];
        return errors;
    }

    public override string Describe(HttpParameters p) =>
        $"{p.Method} {p.Url}" + (p.Variants is { Count: > 0 } ? $", variants {string.Join(", ", p.Resolved().Select(v => v.Name))} interleaved" : "");

    public override IReadOnlyList<string> PlannedSeries(HttpParameters p) => p.Resolved().Select(v => v.Name).ToList();

    public override IReadOnlyList<(string Name, HttpParameters Parameters)> SeparateVariants(HttpParameters p) =>
        p.Resolved().Select(v => (v.Name, v.Parameters with { InterleaveBlock = 1 })).ToList();

    public override HttpParameters IdenticalVariants(HttpParameters plain) => plain with { Variants = [new() { Name = "A" }, new() { Name = "B" }], InterleaveBlock = 1 };
}
