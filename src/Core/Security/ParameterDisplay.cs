using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using BenchDashboard.Core.Data;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Security;

/// <summary>
/// Parameters as pages, the API and comparisons show them to anyone but an identified administrator. What can
/// carry a credential for the target is replaced by a fingerprint: a <c>headers</c> object's values and a
/// <c>body</c> (an Authorization header), and in a <c>url</c> the user-info and each query value
/// (<c>https://user:pass@host/?code=…&amp;sig=…</c>). Two runs with different tokens still show as different;
/// neither token is readable. A fingerprint is an HMAC under a key of this installation, so a short secret
/// cannot be confirmed offline by hashing guesses. The stored parameters keep the real values for the runner.
/// </summary>
public sealed class ParameterDisplay
{
    readonly byte[] key;

    public ParameterDisplay(byte[] key) => this.key = key;

    public ParameterDisplay(IDataProtectionProvider protection, IOptions<DatabaseOptions> database, IHostEnvironment environment, ILogger<ParameterDisplay> logger)
        : this(LoadOrCreateKey(protection.CreateProtector("BenchDashboard.Fingerprints"), database.Value.FullPath(environment) + ".fingerprint-key", logger))
    {
    }

    /// <summary>The parameters JSON with secrets fingerprinted.</summary>
    public string Redact(string parametersJson)
    {
        JsonNode? node;
        try
        {
            node = JsonNode.Parse(parametersJson);
        }
        catch (System.Text.Json.JsonException)
        {
            return "(unreadable parameters)";
        }
        if (node is not JsonObject parameters) return parametersJson;
        if (parameters["headers"] is JsonObject headers)
            foreach (var name in headers.Select(h => h.Key).ToList())
                headers[name] = Fingerprint(headers[name]?.ToString());
        if (parameters["body"] is JsonValue body && body.ToString() is { Length: > 0 } text)
            parameters["body"] = Fingerprint(text);
        if (parameters["url"] is JsonValue url && url.ToString() is { Length: > 0 } address)
            parameters["url"] = Url(address);
        return parameters.ToJsonString(Json.Options);
    }

    /// <summary>"https://(hidden, 9 chars, id 1a2b3c4d)@host/path?code=(hidden, 40 chars, id …)": names stay, values go.</summary>
    public string Url(string url)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri)) return url;
        var shown = new StringBuilder().Append(uri.Scheme).Append("://");
        if (uri.UserInfo.Length > 0) shown.Append(Fingerprint(Uri.UnescapeDataString(uri.UserInfo))).Append('@');
        shown.Append(uri.Authority[(uri.Authority.IndexOf('@') + 1)..]).Append(uri.AbsolutePath);
        if (uri.Query.Length > 1)
            shown.Append('?').Append(string.Join('&', uri.Query[1..].Split('&').Select(pair =>
                pair.IndexOf('=') is var equals and >= 0 ? $"{pair[..equals]}={Fingerprint(Uri.UnescapeDataString(pair[(equals + 1)..]))}" : pair)));
        return shown.ToString();
    }

    /// <summary>An HMAC-SHA256 of a text under this installation's key, in hex: it changes with the text, yet confirms no guess of a secret in it.</summary>
    public string Keyed(string text) => Convert.ToHexStringLower(HMACSHA256.HashData(key, Encoding.UTF8.GetBytes(text)));

    /// <summary>"(hidden, 41 chars, id 3f2a9c1e)": the length and 32 bits of HMAC-SHA256 under this installation's key.</summary>
    public string Fingerprint(string? value) =>
        value is null ? "(hidden)" : $"(hidden, {value.Length} chars, id {Convert.ToHexStringLower(HMACSHA256.HashData(key, Encoding.UTF8.GetBytes(value)))[..8]})";

    /// <summary>
    /// A random key kept beside the database, protected by ASP.NET Core data protection (whose key ring the host
    /// already keeps), so fingerprints stay the same across restarts. If it cannot be kept, a key for this
    /// process only: fingerprints then change with each start, which shows less but hides as much.
    /// </summary>
    static byte[] LoadOrCreateKey(IDataProtector protector, string path, ILogger logger)
    {
        try
        {
            if (File.Exists(path)) return Convert.FromBase64String(protector.Unprotect(File.ReadAllText(path)));
        }
        catch (Exception ex) when (ex is CryptographicException or FormatException or IOException)
        {
            logger.LogWarning("The fingerprint key {Path} cannot be read ({Reason}); a new one is made, so fingerprints change.", path, ex.Message);
        }
        var key = RandomNumberGenerator.GetBytes(32);
        try
        {
            File.WriteAllText(path, protector.Protect(Convert.ToBase64String(key)));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            logger.LogWarning("The fingerprint key cannot be stored at {Path} ({Reason}); fingerprints will change with each start.", path, ex.Message);
        }
        return key;
    }
}
