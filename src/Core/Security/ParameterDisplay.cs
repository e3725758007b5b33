using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;

namespace BenchDashboard.Core.Security;

/// <summary>
/// Parameters as pages, the API and comparisons show them to anyone but an identified administrator. What can
/// carry a credential for the target (<see cref="SecretValues"/>) is replaced by a fingerprint: the value of a
/// header that authenticates, a <c>body</c>, and in a <c>url</c> the user-info, the value of a query parameter whose
/// name carries credentials (<c>sig</c>, <c>token</c>, <c>code</c> …) and each query part without a name
/// (<c>https://user:pass@host/?code=…&amp;sig=…&amp;TOKEN</c>); any other value that looks random too. The rest
/// (<c>?ms=2</c>, <c>Accept: text/html</c>) stays readable: it is often what sets one setting apart from another.
/// The same in every variant and step. Two runs with different tokens still show as different; neither token is
/// readable. A fingerprint is an HMAC under a key of this installation, so a short secret cannot be confirmed
/// offline by hashing guesses. The stored parameters keep the real values for the runner.
/// </summary>
public sealed class ParameterDisplay
{
    /// <summary>The data-protection purpose the fingerprint key's file beside the database was protected under (before the dashboard kept its keys in the database).</summary>
    public const string Purpose = "BenchDashboard.Fingerprints";

    readonly Func<byte[]>? load;
    readonly Lock loading = new();
    byte[]? key;

    public ParameterDisplay(byte[] key) => this.key = key;

    /// <summary>
    /// The installation's key as <paramref name="load"/> reads it (from the results database: the same on every
    /// dashboard on it), at first use, not here: the dashboard may still be waiting for its server.
    /// </summary>
    public ParameterDisplay(Func<byte[]> load) => this.load = load;

    /// <summary>Read once it can be: a failed read (the server down) is tried again at the next use.</summary>
    byte[] Key
    {
        get
        {
            if (key is { } known) return known;
            lock (loading) return key ??= load!();
        }
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
        RedactRequest(parameters);
        // A variant (or a step of a journey) is a request of its own: its url, headers and body as the run's.
        foreach (var list in new[] { "variants", "steps" })
            if (parameters[list] is JsonArray items)
                foreach (var item in items.OfType<JsonObject>())
                {
                    RedactRequest(item);
                    // A variant may replace the journey's steps with its own.
                    if (item["steps"] is JsonArray steps)
                        foreach (var step in steps.OfType<JsonObject>()) RedactRequest(step);
                }
        return parameters.ToJsonString(Json.Options);
    }

    void RedactRequest(JsonObject request)
    {
        if (request["headers"] is JsonObject headers)
            foreach (var name in headers.Select(h => h.Key).ToList())
                if (headers[name]?.ToString() is var value && (SecretValues.IsCredentialHeader(name) || SecretValues.LooksRandom(value)))
                    headers[name] = Fingerprint(value);
        if (request["body"] is JsonValue body && body.ToString() is { Length: > 0 } text)
            request["body"] = Fingerprint(text);
        if (request["url"] is JsonValue url && url.ToString() is { Length: > 0 } address)
            request["url"] = Url(address);
    }

    /// <summary>"https://(hidden, 9 chars, id 1a2b3c4d)@host/path?code=(hidden, 40 chars, id …)&amp;ms=2": names stay, credentials' values go.</summary>
    public string Url(string url)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri)) return url;
        var shown = new StringBuilder().Append(uri.Scheme).Append("://");
        if (uri.UserInfo.Length > 0) shown.Append(Fingerprint(Uri.UnescapeDataString(uri.UserInfo))).Append('@');
        shown.Append(uri.Authority[(uri.Authority.IndexOf('@') + 1)..]).Append(uri.AbsolutePath);
        if (uri.Query.Length > 1)
            shown.Append('?').Append(string.Join('&', uri.Query[1..].Split('&').Select(pair =>
                pair.IndexOf('=') is var equals and >= 0 ? $"{pair[..equals]}={QueryValue(Uri.UnescapeDataString(pair[..equals]), pair[(equals + 1)..])}"
                // A part without "=" (?BAREQUERYSECRET) is all value: a token is sent so as often as a name.
                : pair.Length > 0 ? Fingerprint(Uri.UnescapeDataString(pair)) : pair)));
        return shown.ToString();
    }

    /// <summary>A query value as shown: fingerprinted when its name or its look says credential, else as written.</summary>
    string QueryValue(string name, string written)
    {
        var value = Uri.UnescapeDataString(written);
        return SecretValues.IsCredentialQueryName(name) || SecretValues.LooksRandom(value) ? Fingerprint(value) : written;
    }

    /// <summary>An HMAC-SHA256 of a text under this installation's key, in hex: it changes with the text, yet confirms no guess of a secret in it.</summary>
    public string Keyed(string text) => Convert.ToHexStringLower(HMACSHA256.HashData(Key, Encoding.UTF8.GetBytes(text)));

    /// <summary>"(hidden, 41 chars, id 3f2a9c1e)": the length and 32 bits of HMAC-SHA256 under this installation's key.</summary>
    public string Fingerprint(string? value) =>
        value is null ? "(hidden)" : $"(hidden, {value.Length} chars, id {Convert.ToHexStringLower(HMACSHA256.HashData(Key, Encoding.UTF8.GetBytes(value)))[..8]})";
}
