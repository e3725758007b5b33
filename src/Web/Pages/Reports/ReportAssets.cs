using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.FileProviders;

namespace BenchDashboard.Web.Pages.Reports;

/// <summary>
/// The site's own files as a report inlines them, read once from wwwroot: scripts and style sheets as text safe
/// inside their element, other files (the favicon) as data: addresses. The report's content policy allows exactly
/// these scripts and styles by their hashes, so nothing else can run in a saved report.
/// </summary>
public sealed class ReportAssets(IWebHostEnvironment environment)
{
    static readonly string[] InlinedFolders = ["/js", "/lib", "/css"];

    readonly ConcurrentDictionary<string, string> texts = new();
    readonly ConcurrentDictionary<string, string> dataUrls = new();
    readonly Lazy<string> policy = new(() => BuildPolicy(environment.WebRootFileProvider));

    /// <summary>
    /// The report's content policy: nothing is fetched (no default source, images only as data:), and only the
    /// site's own scripts and styles run, by their hashes: a name that slipped past escaping still could not.
    /// </summary>
    public string ContentSecurityPolicy => policy.Value;

    /// <summary>A script's text, with "&lt;/script" and "&lt;!--" written so that the element cannot end early.</summary>
    public string Script(string path) => texts.GetOrAdd(path, p => SafeScript(Read(environment.WebRootFileProvider, p)));

    /// <summary>A style sheet's text, with "&lt;/style" written so that the element cannot end early.</summary>
    public string Style(string path) => texts.GetOrAdd(path, p => SafeStyle(Read(environment.WebRootFileProvider, p)));

    /// <summary>A file as a data: address (the favicon).</summary>
    public string DataUrl(string path) => dataUrls.GetOrAdd(path, p =>
    {
        var type = Path.GetExtension(p) switch { ".svg" => "image/svg+xml", ".png" => "image/png", ".ico" => "image/x-icon", var other => throw new InvalidOperationException($"No content type for {other} files in a report.") };
        using var bytes = new MemoryStream();
        using (var stream = Open(environment.WebRootFileProvider, p)) stream.CopyTo(bytes);
        return $"data:{type};base64,{Convert.ToBase64String(bytes.ToArray())}";
    });

    /// <summary>The wwwroot path of a page's src or href ("~/js/units.js?v=…" is "/js/units.js"); null for another site's.</summary>
    public static string? LocalPath(string? address)
    {
        if (string.IsNullOrEmpty(address)) return null;
        var path = address.Split('?', '#')[0];
        if (path.StartsWith("~/", StringComparison.Ordinal)) path = path[1..];
        return path.StartsWith('/') && !path.StartsWith("//", StringComparison.Ordinal) ? path : null;
    }

    // In script data only these two open or close the element early; in our files they can only stand in strings,
    // regular expressions or comments, where "<\/" and "<\x21--" mean the same.
    static string SafeScript(string text) => text.Replace("</script", "<\\/script", StringComparison.OrdinalIgnoreCase).Replace("<!--", "<\\x21--", StringComparison.Ordinal);

    static string SafeStyle(string text) => text.Replace("</style", "<\\/style", StringComparison.OrdinalIgnoreCase);

    static string Read(IFileProvider files, string path)
    {
        using var reader = new StreamReader(Open(files, path), Encoding.UTF8);
        return reader.ReadToEnd();
    }

    static Stream Open(IFileProvider files, string path)
    {
        var file = files.GetFileInfo(path);
        if (!file.Exists || file.IsDirectory) throw new InvalidOperationException($"A report inlines {path}, which wwwroot does not have.");
        return file.CreateReadStream();
    }

    static string BuildPolicy(IFileProvider files)
    {
        var scripts = new List<string>();
        var styles = new List<string>();
        foreach (var path in InlinedFolders.SelectMany(folder => AllFiles(files, folder)))
        {
            if (path.EndsWith(".js", StringComparison.Ordinal)) scripts.Add(Hash(SafeScript(Read(files, path))));
            else if (path.EndsWith(".css", StringComparison.Ordinal)) styles.Add(Hash(SafeStyle(Read(files, path))));
        }
        return $"default-src 'none'; script-src {string.Join(' ', scripts)}; style-src {string.Join(' ', styles)}; img-src data:; form-action 'none'";
    }

    static IEnumerable<string> AllFiles(IFileProvider files, string folder)
    {
        foreach (var entry in files.GetDirectoryContents(folder))
        {
            var path = folder + "/" + entry.Name;
            if (entry.IsDirectory) foreach (var inner in AllFiles(files, path)) yield return inner;
            else yield return path;
        }
    }

    static string Hash(string text) => $"'sha256-{Convert.ToBase64String(SHA256.HashData(Encoding.UTF8.GetBytes(text)))}'";
}
