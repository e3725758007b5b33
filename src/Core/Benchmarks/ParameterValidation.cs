using BenchDashboard.Core.Security;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>One place that validates any kind's parameters, so the API, forms, scheduler and store agree.</summary>
public sealed class ParameterValidation(IOptions<RunLimits> limits, CacheConnections connections, TargetPolicy targets, FileSystemRoots roots)
{
    /// <summary>The fields, then whether the target may be reached at all (<see cref="TargetPolicy"/>).</summary>
    public async Task<Dictionary<string, string[]>> ValidateAsync(HttpParameters p, CancellationToken ct)
    {
        var errors = HttpParametersValidator.Validate(p, limits.Value);
        if (!errors.ContainsKey("url") && await targets.CheckAsync(new Uri(p.Url), ct) is { } refused) errors["url"] = [refused];
        return errors;
    }

    public Task<Dictionary<string, string[]>> ValidateAsync(CacheParameters p, CancellationToken ct) =>
        Task.FromResult(CacheParametersValidator.Validate(p, limits.Value, connections.Exists));

    public Task<Dictionary<string, string[]>> ValidateAsync(FileSystemParameters p, CancellationToken ct) =>
        Task.FromResult(FileSystemParametersValidator.Validate(p, roots, limits.Value));

    /// <summary>Validates stored parameters (a saved benchmark's); returns them re-serialized in canonical form.</summary>
    public async Task<(string Json, Dictionary<string, string[]> Errors)> ValidateAsync(BenchmarkKind kind, string parametersJson, CancellationToken ct)
    {
        switch (kind)
        {
            case BenchmarkKind.Http:
                var http = Json.Deserialize<HttpParameters>(parametersJson);
                return (Json.Serialize(http), await ValidateAsync(http, ct));
            case BenchmarkKind.Cache:
                var cache = Json.Deserialize<CacheParameters>(parametersJson);
                return (Json.Serialize(cache), await ValidateAsync(cache, ct));
            case BenchmarkKind.FileSystem:
                var files = Json.Deserialize<FileSystemParameters>(parametersJson);
                return (Json.Serialize(files), await ValidateAsync(files, ct));
            default:
                return (parametersJson, new() { ["kind"] = [$"Unknown benchmark kind {kind}."] });
        }
    }
}
