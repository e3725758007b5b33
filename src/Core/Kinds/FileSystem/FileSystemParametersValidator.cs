using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>Checks file-system parameters; errors are keyed by the API's field names.</summary>
public static class FileSystemParametersValidator
{
    public const int MaxFiles = 200_000;
    public const int MaxFileBytes = 16 * 1024 * 1024;
    public const int MaxLargeFileMiB = 4096;
    public const int MaxDirectories = 8;

    public static Dictionary<string, string[]> Validate(FileSystemParameters p, FileSystemRoots roots, RunLimits limits)
    {
        var errors = new Dictionary<string, List<string>>();
        void Add(string field, string message)
        {
            if (!errors.TryGetValue(field, out var list)) errors[field] = list = [];
            list.Add(message);
        }

        var directories = p.Directories ?? []; // JSON can say null
        if (directories.Count is 0 or > MaxDirectories) Add("directories", $"Choose 1 to {MaxDirectories} directories.");
        if (directories.Distinct().Count() != directories.Count) Add("directories", "Each directory can appear once.");
        var locations = new List<FileSystemLocation>();
        for (var i = 0; i < directories.Count; i++)
        {
            var (location, error) = roots.Prepare(directories[i] ?? "", i);
            if (error is not null) Add("directories", error);
            else locations.Add(location!);
        }

        if (p.FileCount < 1 || p.FileCount > MaxFiles) Add("fileCount", $"File count must be between 1 and {MaxFiles:N0}.");
        if (p.FileBytes < 0 || p.FileBytes > MaxFileBytes) Add("fileBytes", $"File size must be between 0 and {MaxFileBytes:N0} bytes.");
        else if ((long)p.FileCount * p.FileBytes > 4L * 1024 * 1024 * 1024) Add("fileBytes", "File count × file size must be at most 4 GiB.");
        if (p.FilesPerDirectory < 1 || p.FilesPerDirectory > 10_000) Add("filesPerDirectory", "Files per folder must be between 1 and 10,000.");
        if (p.LargeFileMiB < 0 || p.LargeFileMiB > MaxLargeFileMiB) Add("largeFileMiB", $"The large file must be between 0 (none) and {MaxLargeFileMiB:N0} MiB.");
        // Every operation is a sample: four per file, one per folder listed, two per MiB of the large file.
        var operations = (long)directories.Count * (4L * p.FileCount + p.FileCount / Math.Max(1, p.FilesPerDirectory) + 2 + 2L * p.LargeFileMiB);
        if (operations > limits.MaxRequests)
            Add("fileCount", $"That is about {operations:N0} operations in all; at most {limits.MaxRequests:N0} (RunLimits:MaxRequests).");

        if (errors.Count == 0)
            foreach (var location in locations)
                if (roots.SpareBytes(location.Path) is { } spare && BytesWritten(p) > spare)
                    Add("fileCount", $"{location.Label} needs about {BytesWritten(p) / 1048576.0:N0} MiB but its disk has {Math.Max(0, spare) / 1048576.0:N0} MiB to spare (FileSystem:KeepFreeMiB is left free).");

        return errors.ToDictionary(e => e.Key, e => e.Value.ToArray());
    }

    /// <summary>
    /// The most one location holds at once: every file (each takes at least a 4 KiB block), then the large file.
    /// Locations are measured one after another, each cleaned up before the next.
    /// </summary>
    public static long BytesWritten(FileSystemParameters p) => p.FileCount * Footprint(p.FileBytes) + p.LargeFileMiB * 1024L * 1024;

    /// <summary>What one small file takes on disk: its size in whole 4 KiB blocks, at least one.</summary>
    public static long Footprint(int fileBytes)
    {
        const long BlockBytes = 4096;
        return Math.Max(BlockBytes, (fileBytes + BlockBytes - 1) / BlockBytes * BlockBytes);
    }
}
