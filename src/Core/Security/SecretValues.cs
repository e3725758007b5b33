namespace BenchDashboard.Core.Security;

/// <summary>
/// Which parts of a request may carry a credential for the target, so that pages hide those and show the rest in
/// full: a header that authenticates, a query parameter whose name says it is a key, token or signature, and any
/// value that looks random (a key pasted where no name gives it away). An ordinary value (<c>ms=2</c>,
/// <c>Accept: application/json</c>) is what a comparison is about, so it stays readable.
/// </summary>
public static class SecretValues
{
    /// <summary>Headers that carry credentials by their purpose, whatever their value looks like.</summary>
    static readonly HashSet<string> CredentialHeaders = new(StringComparer.OrdinalIgnoreCase)
    {
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key", "X-Auth-Token", "X-Access-Token",
        "Ocp-Apim-Subscription-Key", "X-Functions-Key", "X-Amz-Security-Token", "X-Goog-Api-Key", "X-Csrf-Token", "X-Xsrf-Token",
        "X-Ms-Authorization-Auxiliary", "X-Ms-Token-Aad-Access-Token", "X-Ms-Token-Aad-Id-Token",
    };

    /// <summary>Query parameter names that carry credentials (an SAS's <c>sig</c>, OAuth's <c>code</c> and <c>access_token</c>).</summary>
    static readonly HashSet<string> CredentialNames = new(StringComparer.OrdinalIgnoreCase)
    {
        "sig", "signature", "token", "access_token", "id_token", "refresh_token", "key", "apikey", "api_key", "api-key", "code",
        "password", "passwd", "pwd", "pass", "secret", "client_secret", "auth", "session", "sessionid", "credential", "credentials",
        "subscription-key", "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "skoid", "sktid",
    };

    /// <summary>Name parts that make any header or query name a credential's ("X-My-Token", "my_api_key", "dbPassword").</summary>
    static readonly string[] CredentialWords = ["token", "secret", "password", "passwd", "apikey", "api-key", "api_key", "signature", "credential", "cookie", "session"];

    /// <summary>The shortest value taken for a random key: shorter random strings are too often ordinary ids.</summary>
    public const int RandomMinLength = 20;

    public static bool IsCredentialHeader(string name) => CredentialHeaders.Contains(name.Trim()) || HasCredentialWord(name);

    public static bool IsCredentialQueryName(string name) => CredentialNames.Contains(name.Trim()) || HasCredentialWord(name);

    static bool HasCredentialWord(string name) => CredentialWords.Any(w => name.Contains(w, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// A value that reads as a generated key: at least <see cref="RandomMinLength"/> characters of a base64, base64url
    /// or hex alphabet with digits and letters mixed, and more distinct characters than words or numbers have
    /// (a GUID, a hex digest, "Zm9vYmFyYmF6cXV4…"). "delay-twenty-ms", "2024-01-01T00:00:00Z" and "application/json" are not.
    /// </summary>
    public static bool LooksRandom(string? value)
    {
        if (value is null) return false;
        var text = value.Trim();
        if (text.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase) || text.StartsWith("Basic ", StringComparison.OrdinalIgnoreCase)) return true;
        var token = text.TrimEnd('=');
        if (token.Length < RandomMinLength) return false;
        if (!token.All(c => char.IsAsciiLetterOrDigit(c) || c is '+' or '/' or '-' or '_' or '.')) return false;
        var digits = token.Count(char.IsAsciiDigit);
        var letters = token.Count(char.IsAsciiLetter);
        if (digits == 0 || letters == 0) return false;
        // Hex digests and GUIDs: only hex digits (and a GUID's dashes) with letters and digits both present.
        if (token.All(c => char.IsAsciiHexDigit(c) || c == '-') && token.Count(c => c == '-') is 0 or 4) return true;
        // Base64: mixed case and digits, few separators, many distinct characters (words repeat a few letters).
        var upper = token.Count(char.IsAsciiLetterUpper);
        var lower = token.Count(char.IsAsciiLetterLower);
        var separators = token.Count(c => c is '-' or '_' or '.' or '/');
        return upper > 0 && lower > 0 && separators * 8 <= token.Length && token.Distinct().Count() >= Math.Min(16, token.Length * 2 / 5);
    }
}
