using BenchDashboard.Core.Benchmarks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>A directory a file-system benchmark may use: its label (the series prefix) and full path.</summary>
public sealed record FileSystemLocation(string Label, string Path);

/// <summary>
/// Resolves the directories of a file-system benchmark to locations inside the allowed roots, refusing
/// anything outside them: ".." that climbs out and, before writing, symbolic links below a root, which could
/// point anywhere.
/// </summary>
public sealed class FileSystemRoots
{
    readonly Dictionary<string, string> named;
    readonly string[] allowed;
    readonly Func<string, long?> availableBytes;

    public FileSystemRoots(IOptions<FileSystemOptions> options, IHostEnvironment environment)
        : this(FileSystemOptions.NamedRoots(environment.ContentRootPath, Environment.GetEnvironmentVariable), options.Value.AllowedRoots, options.Value.KeepFreeMiB * 1024L * 1024)
    {
    }

    /// <param name="availableBytes">Free bytes on the disk of an existing folder, null when unknown (default: <see cref="DriveInfo"/>).</param>
    public FileSystemRoots(Dictionary<string, string> named, IEnumerable<string> allowedRoots, long keepFreeBytes = 0, Func<string, long?>? availableBytes = null)
    {
        this.named = named;
        this.availableBytes = availableBytes ?? DriveAvailableBytes;
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
        return availableBytes(existing) - KeepFreeBytes;
    }

    static long? DriveAvailableBytes(string folder)
    {
        try
        {
            return new DriveInfo(folder).AvailableFreeSpace;
        }
        catch (Exception ex) when (ex is IOException or ArgumentException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Where <paramref name="directory"/> is and its label (the series prefix), or why it is not allowed, from the
    /// name and the configuration alone: nothing on disk is read or made, so what a stored run shows never depends
    /// on the disk's state now. Before writing, use <see cref="Prepare"/>.
    /// </summary>
    public (FileSystemLocation? Location, string? Error) Locate(string directory, int position)
    {
        // A NUL or other control character is never part of a real directory name (and Path.GetFullPath throws on NUL).
        if (directory.Any(char.IsControl))
            return (null, "A directory may not contain control characters (NUL, line breaks, tabs …).");
        if (named.TryGetValue(directory, out var root))
            return (new FileSystemLocation(directory, root), null);
        if (!System.IO.Path.IsPathRooted(directory))
            return (null, $"'{directory}' is neither a named root ({string.Join(", ", named.Keys)}) nor an absolute path.");
        var full = System.IO.Path.GetFullPath(directory);
        if (!allowed.Any(r => IsUnder(full, r)))
            return (null, $"'{directory}' is outside the allowed roots ({string.Join(", ", allowed)}); add one with FileSystem:AllowedRoots.");
        return (new FileSystemLocation($"dir{position + 1}", full), null);
    }

    /// <summary>
    /// <see cref="Locate"/>, then the location made safe to write in now, or why it cannot be: the temp root is
    /// created private (or refused), and no path below a root may go through a symbolic link. Only for writing:
    /// before a run is queued and before it runs.
    /// </summary>
    public (FileSystemLocation? Location, string? Error) Prepare(string directory, int position)
    {
        var (location, error) = Locate(directory, position);
        if (location is null) return (null, error);
        if (named.ContainsKey(directory))
        {
            // The temp folder is shared with every local user: the root there must be this process's own.
            if (directory == FileSystemOptions.TempRoot && PrivateDirectory.Ensure(location.Path) is { } unsafeRoot)
                return (null, $"The temp root cannot be used safely: {unsafeRoot}");
            return (location, null);
        }
        if (LinkBelow(allowed.First(r => IsUnder(location.Path, r)), location.Path) is { } link)
            return (null, $"'{link}' is a symbolic link; a benchmark directory may not go through one.");
        return (location, null);
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
