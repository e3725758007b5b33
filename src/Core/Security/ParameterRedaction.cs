using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;

namespace BenchDashboard.Core.Security;

/// <summary>
/// Parameters as pages, the API and comparisons show them. A <c>headers</c> object's values and a <c>body</c>
/// can carry credentials for the target (an Authorization header), whatever the kind, so they are replaced
/// by a short fingerprint: two runs with different tokens still show as different, and neither token is
/// readable. The stored parameters keep the real values for the runner. (Connection strings are never
/// parameters: cache and Table benchmarks name them.)
/// </summary>
public static class ParameterRedaction
{
    public static string Redact(string parametersJson)
    {
        if (JsonNode.Parse(parametersJson) is not JsonObject parameters) return parametersJson;
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
