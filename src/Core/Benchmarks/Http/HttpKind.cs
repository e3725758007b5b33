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

    /// <summary>The fields, then whether the target may be reached at all (<see cref="TargetPolicy"/>).</summary>
    public override async Task<Dictionary<string, string[]>> ValidateAsync(HttpParameters p, CancellationToken ct)
    {
        var errors = HttpParametersValidator.Validate(p, limits.Value);
        if (!errors.ContainsKey("url") && await targets.CheckAsync(new Uri(p.Url), ct) is { } refused) errors["url"] = [refused];
        return errors;
    }

    public override string Describe(HttpParameters p) => $"{p.Method} {p.Url}";
}
