using System.Diagnostics;
using System.Security.Cryptography;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Benchmarks.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.FileSystem;

/// <summary>
/// Seed 001's experiment per directory: create a tree of many small files, read them all, list and stat
/// them, delete them (one sample per file operation, one series per location and phase), then write and
/// read one large file sequentially in 1 MiB blocks. Each location works in a fresh folder of its own that
/// is removed afterwards, also after a failure or cancel.
/// </summary>
public sealed class FileSystemBenchmark(FileSystemRoots roots) : IBenchmarkExecutor
{
    const int Block = 1024 * 1024;

    public string Kind => FileSystemKind.KindName;

    public async Task ExecuteAsync(RunContext context, CancellationToken ct)
    {
        var p = Json.Deserialize<FileSystemParameters>(context.ParametersJson);
        var runStart = Stopwatch.GetTimestamp();
        var index = 0;
        for (var i = 0; i < p.Directories.Count; i++)
        {
            // Prepared again now: a link could have appeared since the run was queued.
            var (location, error) = roots.Prepare(p.Directories[i], i);
            if (location is null) throw new InvalidOperationException(error);
            var tree = Path.Combine(location.Path, $"run{context.Run.Id}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}");
            context.Notes.Add($"{location.Label}: {tree}");
            try
            {
                Directory.CreateDirectory(tree);
                index = await MeasureAsync(p, location.Label, tree, context, runStart, index, new DiskSpaceGuard(roots, tree, location.Label), ct);
            }
            finally
            {
                CleanUp(tree, location.Label, context.Notes);
            }
        }
    }

    static async Task<int> MeasureAsync(FileSystemParameters p, string label, string tree, RunContext context, long runStart, int index, DiskSpaceGuard space, CancellationToken ct)
    {
        var content = RandomNumberGenerator.GetBytes(p.FileBytes);
        var files = Enumerable.Range(0, p.FileCount).Select(i => FilePath(tree, i, p.FilesPerDirectory)).ToArray();
        var buffer = new byte[Math.Max(p.FileBytes, 1)];

        // Each operation is timed alone; a failed one (disk full, quota, permissions) is a sample with its
        // error, and the phase goes on, as a user's extraction would report every file it could not write.
        Sample Measure(string phase, Func<long> operation)
        {
            ct.ThrowIfCancellationRequested();
            var sample = new Sample { Index = index++, Series = FileSystemPhases.Series(label, phase) };
            var start = Stopwatch.GetTimestamp();
            try
            {
                sample.Bytes = operation();
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                sample.Error = ErrorKind.Other;
                context.Notes.AddError(ErrorKind.Other, $"{phase}: {ex.Message.Replace(tree, "{tree}")}");
            }
            var end = Stopwatch.GetTimestamp();
            sample.OffsetNs = Ticks.ToNanoseconds(start - runStart);
            sample.LatencyNs = Ticks.ToNanoseconds(end - start);
            context.Record(sample);
            return sample;
        }

        var footprint = FileSystemParametersValidator.Footprint(p.FileBytes);
        foreach (var file in files)
        {
            space.BeforeWriting(footprint);
            Measure(FileSystemPhases.Create, () =>
            {
                Directory.CreateDirectory(Path.GetDirectoryName(file)!); // a no-op once the folder exists
                File.WriteAllBytes(file, content);
                return content.Length;
            });
        }
        foreach (var file in files)
            Measure(FileSystemPhases.Read, () =>
            {
                using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.None);
                long total = 0;
                int read;
                while ((read = stream.Read(buffer)) > 0) total += read;
                return total;
            });
        // Listing and stat: walk the tree as `ls -lR` does, a sample per entry's metadata.
        foreach (var entry in new DirectoryInfo(tree).EnumerateFileSystemInfos("*", SearchOption.AllDirectories))
            Measure(FileSystemPhases.Stat, () =>
            {
                entry.Refresh();
                return entry is FileInfo f ? f.Length : 0;
            });
        foreach (var file in files)
            Measure(FileSystemPhases.Delete, () =>
            {
                File.Delete(file);
                return 0;
            });

        if (p.LargeFileMiB > 0)
        {
            var large = Path.Combine(tree, "large.bin");
            var block = RandomNumberGenerator.GetBytes(Block);
            space.Check((long)p.LargeFileMiB * Block);
            await using (var output = new FileStream(large, FileMode.Create, FileAccess.Write, FileShare.None, 1, FileOptions.None))
            {
                for (var i = 0; i < p.LargeFileMiB; i++)
                {
                    space.BeforeWriting(Block);
                    Measure(FileSystemPhases.LargeWrite, () =>
                    {
                        output.Write(block);
                        if (i == p.LargeFileMiB - 1) output.Flush(flushToDisk: true); // the last block pays for reaching the disk
                        return block.Length;
                    });
                }
            }
            await using (var input = new FileStream(large, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.None))
            {
                for (var i = 0; i < p.LargeFileMiB; i++)
                    Measure(FileSystemPhases.LargeRead, () =>
                    {
                        var total = 0;
                        int read;
                        while (total < Block && (read = input.Read(block, total, Block - total)) > 0) total += read;
                        return total;
                    });
            }
        }
        return index;
    }

    /// <summary>f{i} in d{a}/d{b}: folders of <paramref name="perFolder"/> files, nested two levels like an unpacked archive.</summary>
    static string FilePath(string tree, int i, int perFolder)
    {
        var folder = i / perFolder;
        return Path.Combine(tree, $"d{folder / 32:D3}", $"d{folder % 32:D2}", $"f{i:D6}.dat");
    }

    static void CleanUp(string tree, string label, RunNotes notes)
    {
        try
        {
            if (Directory.Exists(tree)) Directory.Delete(tree, recursive: true);
            notes.Add($"{label}: removed the run's folder.");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            notes.Add($"{label}: could not remove {tree}: {ex.Message}");
        }
    }
}
