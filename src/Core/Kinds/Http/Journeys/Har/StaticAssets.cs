namespace BenchDashboard.Core.Kinds.Http.Journeys.Har;

/// <summary>
/// Whether a recorded request fetched a static asset (image, style sheet, script, font, media): a browser's
/// session is mostly these, a journey of an API is not. Judged by the answer's type first, then by the
/// URL's extension (an aborted or cached fetch may have no type).
/// </summary>
public static class StaticAssets
{
    static readonly string[] TypePrefixes = ["image/", "font/", "audio/", "video/", "text/css", "application/font-", "application/x-font-"];

    static readonly HashSet<string> ScriptTypes = new(StringComparer.OrdinalIgnoreCase)
    {
        "text/javascript", "application/javascript", "application/x-javascript", "application/ecmascript", "text/ecmascript", "application/wasm",
        "application/vnd.ms-fontobject",
    };

    static readonly HashSet<string> Extensions = new(StringComparer.OrdinalIgnoreCase)
    {
        ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp", ".avif", ".bmp",
        ".css", ".js", ".mjs", ".map", ".wasm",
        ".woff", ".woff2", ".ttf", ".otf", ".eot",
        ".mp4", ".webm", ".mp3", ".wav", ".ogg", ".m4a",
    };

    /// <summary>What kind of asset it is ("image", "script" ...), or null for a request a journey keeps.</summary>
    public static string? KindOf(string? mimeType, Uri url)
    {
        var type = (mimeType ?? "").Split(';')[0].Trim();
        if (type.StartsWith("image/", StringComparison.OrdinalIgnoreCase)) return "an image";
        if (type.StartsWith("text/css", StringComparison.OrdinalIgnoreCase)) return "a style sheet";
        if (ScriptTypes.Contains(type)) return type.EndsWith("fontobject", StringComparison.OrdinalIgnoreCase) ? "a font" : "a script";
        if (TypePrefixes.Any(p => type.StartsWith(p, StringComparison.OrdinalIgnoreCase)))
            return type.StartsWith("audio/", StringComparison.OrdinalIgnoreCase) || type.StartsWith("video/", StringComparison.OrdinalIgnoreCase) ? "media" : "a font";
        var extension = Path.GetExtension(url.AbsolutePath);
        if (!Extensions.Contains(extension)) return null;
        return extension.ToLowerInvariant() switch
        {
            ".css" => "a style sheet",
            ".js" or ".mjs" or ".map" or ".wasm" => "a script",
            ".woff" or ".woff2" or ".ttf" or ".otf" or ".eot" => "a font",
            ".mp4" or ".webm" or ".mp3" or ".wav" or ".ogg" or ".m4a" => "media",
            _ => "an image",
        };
    }
}
