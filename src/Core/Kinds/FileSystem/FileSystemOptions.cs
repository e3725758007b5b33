using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>
/// Section "FileSystem": the only directories a file-system benchmark may write in. A benchmark that writes
/// thousands of files wherever a visitor asks would be a way to fill or damage the server's disk.
/// </summary>
public sealed class FileSystemOptions
{
    public const string Section = "FileSystem";

    public const string TempRoot = "temp";

    /// <summary>
    /// Free space (MiB) a file-system run must leave on a disk: a run that would need more is refused before it
    /// is queued, and a running one is stopped (failed, saying so) before its writes take the disk this low (0: no margin, nothing is checked while running).
    /// </summary>
    [System.ComponentModel.DataAnnotations.Range(0, int.MaxValue)] public int KeepFreeMiB { get; set; } = 512;

    /// <summary>Extra allowed roots (absolute paths), besides the named ones below.</summary>
    public List<string> AllowedRoots { get; set; } = [];

    /// <summary>
    /// The named roots: "temp" (the temp directory: local disk, also on App Service), "content" (a folder in
    /// the app's content root; on App Service that is the shared /home storage, and read-only when running
    /// from a package) and, on App Service only, "home" (a folder under $HOME, the shared storage where many small files are slow).
    /// </summary>
    public static Dictionary<string, string> NamedRoots(string contentRoot, Func<string, string?> environment)
    {
        var roots = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            [TempRoot] = Path.GetFullPath(Path.Combine(Path.GetTempPath(), "benchdashboard-fs")),
            ["content"] = Path.GetFullPath(Path.Combine(contentRoot, "fs-bench")),
        };
        if (!string.IsNullOrEmpty(environment("WEBSITE_INSTANCE_ID")) && environment("HOME") is { Length: > 0 } home)
            roots["home"] = Path.GetFullPath(Path.Combine(home, "benchdashboard-fs"));
        return roots;
    }
}
