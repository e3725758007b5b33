using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Benchmarks.FileSystem;

/// <summary>A directory a file-system benchmark may use: its label (the series prefix) and full path.</summary>
public sealed record FileSystemLocation(string Label, string Path);

/// <summary>
/// Resolves the directories of a file-system benchmark to locations inside the allowed roots, refusing
/// anything outside them: ".." that climbs out, and symbolic links below a root, which could point anywhere.
/// </summary>
public sealed class FileSystemRoots
{
    readonly Dictionary<string, string> named;
    readonly string[] allowed;

    public FileSystemRoots(IOptions<FileSystemOptions> options, IHostEnvironment environment)
        : this(FileSystemOptions.NamedRoots(environment.ContentRootPath, Environment.GetEnvironmentVariable), options.Value.AllowedRoots, options.Value.KeepFreeMiB * 1024L * 1024)
    {
    }

    public FileSystemRoots(Dictionary<string, string> named, IEnumerable<string> allowedRoots, long keepFreeBytes = 0)
    {
        this.named = named;
        KeepFreeBytes = keepFreeBytes;
        allowed = named.Values.Concat(allowedRoots.Select(r => System.IO.Path.GetFullPath(r))).Distinct().ToArray();
    }

    public IReadOnlyDictionary<string, string> Named => named;

    /// <summary>Free space a run leaves on a location's disk (<see cref="FileSystemOptions.KeepFreeMiB"/>): it is refused, or stopped, short of it.</summary>
    public long KeepFreeBytes { get; }

    /// <summary>Bytes free for a run at <paramref name="path"/> (the disk of its nearest existing folder), less the margin; null when unknown.</summary>
    public long? SpareBytes(string path)
    {
        var existing = path;
        while (!Directory.Exists(existing) && System.IO.Path.GetDirectoryName(existing) is { } parent) existing = parent;
        try
        {
            return new DriveInfo(existing).AvailableFreeSpace - KeepFreeBytes;
        }
        catch (Exception ex) when (ex is IOException or ArgumentException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The location, or why not.</summary>
    public (FileSystemLocation? Location, string? Error) Resolve(string directory, int position)
    {
        // A NUL or other control character is never part of a real directory name (and Path.GetFullPath throws on NUL).
        if (directory.Any(char.IsControl))
            return (null, "A directory may not contain control characters (NUL, line breaks, tabs …).");
        if (named.TryGetValue(directory, out var root))
        {
            // The temp folder is shared with every local user: the root there must be this process's own.
            if (directory == FileSystemOptions.TempRoot && PrivateDirectory.Ensure(root) is { } unsafeRoot)
                return (null, $"The temp root cannot be used safely: {unsafeRoot}");
            return (new FileSystemLocation(directory, root), null);
        }
        if (!System.IO.Path.IsPathRooted(directory))
            return (null, $"'{directory}' is neither a named root ({string.Join(", ", named.Keys)}) nor an absolute path.");
        var full = System.IO.Path.GetFullPath(directory);
        var under = allowed.FirstOrDefault(r => IsUnder(full, r));
        if (under is null)
            return (null, $"'{directory}' is outside the allowed roots ({string.Join(", ", allowed)}); add one with FileSystem:AllowedRoots.");
        if (LinkBelow(under, full) is { } link)
            return (null, $"'{link}' is a symbolic link; a benchmark directory may not go through one.");
        return (new FileSystemLocation($"dir{position + 1}", full), null);
    }

    static bool IsUnder(string path, string root)
    {
        var withSeparator = root.EndsWith(System.IO.Path.DirectorySeparatorChar) ? root : root + System.IO.Path.DirectorySeparatorChar;
        return path == root || path.StartsWith(withSeparator, StringComparison.Ordinal);
    }

    /// <summary>The first existing path component below <paramref name="root"/> (inclusive of the path) that is a link.</summary>
    static string? LinkBelow(string root, string path)
    {
        var current = path;
        while (current.Length > root.Length)
        {
            var info = new DirectoryInfo(current);
            if (info.Exists && info.LinkTarget is not null) return current;
            if (!info.Exists && new FileInfo(current) is { Exists: true, LinkTarget: not null }) return current;
            current = System.IO.Path.GetDirectoryName(current) ?? root;
        }
        return null;
    }
}
