using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>One place that validates any kind's parameters, so the API, forms, scheduler and store agree.</summary>
public sealed class ParameterValidation(IOptions<RunLimits> limits, CacheConnections connections)
{
    public Dictionary<string, string[]> Validate(HttpParameters p) => HttpParametersValidator.Validate(p, limits.Value);

    public Dictionary<string, string[]> Validate(CacheParameters p) => CacheParametersValidator.Validate(p, limits.Value, connections.Exists);

    /// <summary>Validates stored parameters (a saved benchmark's); returns them re-serialized in canonical form.</summary>
    public (string Json, Dictionary<string, string[]> Errors) Validate(BenchmarkKind kind, string parametersJson) => kind switch
    {
        BenchmarkKind.Http => Canonical(Json.Deserialize<HttpParameters>(parametersJson), Validate),
        BenchmarkKind.Cache => Canonical(Json.Deserialize<CacheParameters>(parametersJson), Validate),
        _ => (parametersJson, new() { ["kind"] = [$"Unknown benchmark kind {kind}."] }),
    };

    static (string, Dictionary<string, string[]>) Canonical<T>(T parameters, Func<T, Dictionary<string, string[]>> validate) =>
        (Json.Serialize(parameters), validate(parameters));
}
