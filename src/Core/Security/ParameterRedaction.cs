using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Security;

/// <summary>
/// Parameters as pages, the API and comparisons show them: an HTTP run's header values and body can carry
/// credentials for the target (an Authorization header), so they are replaced by a short fingerprint. Two
/// runs with different tokens still show as different; neither token is readable. The stored parameters
/// keep the real values for the runner.
/// </summary>
public static class ParameterRedaction
{
    public static string Redact(BenchmarkKind kind, string parametersJson)
    {
        if (kind != BenchmarkKind.Http || JsonNode.Parse(parametersJson) is not JsonObject parameters) return parametersJson;
        if (parameters["headers"] is JsonObject headers)
            foreach (var name in headers.Select(h => h.Key).ToList())
                headers[name] = Fingerprint(headers[name]?.ToString());
        if (parameters["body"] is JsonValue body && body.ToString() is { Length: > 0 } text)
            parameters["body"] = Fingerprint(text);
        return parameters.ToJsonString(Json.Options);
    }

    /// <summary>"(hidden, 41 chars, sha256 3f2a9c1e)".</summary>
    public static string Fingerprint(string? value) =>
        value is null ? "(hidden)" : $"(hidden, {value.Length} chars, sha256 {Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(value)))[..8]})";
}
