using System.Security.Cryptography;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.FileSystem;

/// <summary>
/// Per directory: create a tree of many small files, read them all, list and stat
/// them, delete them (one sample per file operation, one series per location and phase), then write and
/// read one large file sequentially in 1 MiB blocks. Each location works in a fresh folder of its own that
/// is removed afterwards, also after a failure or cancel.
/// </summary>
public sealed class FileSystemBenchmark(FileSystemRoots roots) : BenchmarkExecutor<FileSystemParameters>
{
    const int Block = 1024 * 1024;

    /// <summary>Small files in the temporary folder, the operations shared among their four phases; no large file.</summary>
    public override async Task<int?> WarmUpAsync(int operations, CancellationToken ct) =>
        await SelfWarmup.CountAnsweredAsync(this, new FileSystemParameters { Directories = [FileSystemOptions.TempRoot], FileCount = Math.Clamp(operations / 4, 1, 2000), LargeFileMiB = 0 }, ct);

    public override async Task ExecuteAsync(RunContext context, FileSystemParameters p, CancellationToken ct)
    {
        var driver = new LoadDriver(context);
        for (var i = 0; i < p.Directories.Count; i++)
        {
            // Prepared again now: a link could have appeared since the run was queued.
            var (location, error) = roots.Prepare(p.Directories[i], i);
            if (location is null) throw new InvalidOperationException(error);
            var tree = Path.Combine(location.Path, $"run{context.Run.Id}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}");
            context.Notes.Add($"{location.Label}: {tree}");
            await driver.RunAsync(new LoadPlan
            {
                SetUpAsync = _ =>
                {
                    Directory.CreateDirectory(tree);
                    return Task.CompletedTask;
                },
                Phases = Phases(p, location.Label, tree, new DiskSpaceGuard(roots, tree, location.Label)),
                CleanUpAsync = _ =>
                {
                    CleanUp(tree, location.Label, context.Notes);
                    return Task.CompletedTask;
                },
            }, ct);
        }
    }

    /// <summary>
    /// The location's phases, each prepared once the one before is done (the tree to stat is the one the phases before
    /// wrote): its operations one after another on one worker, operation k on file k.
    /// </summary>
    static IEnumerable<Phase> Phases(FileSystemParameters p, string label, string tree, DiskSpaceGuard space)
    {
        var content = RandomNumberGenerator.GetBytes(p.FileBytes);
        var files = Enumerable.Range(0, p.FileCount).Select(i => FilePath(tree, i, p.FilesPerDirectory)).ToArray();
        var buffer = new byte[Math.Max(p.FileBytes, 1)];
        Phase Of(string phase, int count, Func<long, long> operate, Action? before = null) =>
            new(null, new SequentialLoad(count), new FileOperation(FileSystemPhases.Series(label, phase), phase, tree, operate, before));

        var footprint = FileSystemParametersValidator.Footprint(p.FileBytes);
        yield return Of(FileSystemPhases.Create, files.Length, i =>
        {
            Directory.CreateDirectory(Path.GetDirectoryName(files[i])!); // a no-op once the folder exists
            File.WriteAllBytes(files[i], content);
            return content.Length;
        }, () => space.BeforeWriting(footprint));
        yield return Of(FileSystemPhases.Read, files.Length, i =>
        {
            using var stream = new FileStream(files[i], FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.None);
            long total = 0;
            int read;
            while ((read = stream.Read(buffer)) > 0) total += read;
            return total;
        });
        // Listing and stat: walk the tree as `ls -lR` does, a sample per entry's metadata.
        var entries = new DirectoryInfo(tree).EnumerateFileSystemInfos("*", SearchOption.AllDirectories).ToArray();
        yield return Of(FileSystemPhases.Stat, entries.Length, i =>
        {
            entries[i].Refresh();
            return entries[i] is FileInfo f ? f.Length : 0;
        });
        yield return Of(FileSystemPhases.Delete, files.Length, i =>
        {
            File.Delete(files[i]);
            return 0;
        });

        if (p.LargeFileMiB > 0)
        {
            var large = Path.Combine(tree, "large.bin");
            var block = RandomNumberGenerator.GetBytes(Block);
            space.Check((long)p.LargeFileMiB * Block);
            using (var output = new FileStream(large, FileMode.Create, FileAccess.Write, FileShare.None, 1, FileOptions.None))
                yield return Of(FileSystemPhases.LargeWrite, p.LargeFileMiB, i =>
                {
                    output.Write(block);
                    if (i == p.LargeFileMiB - 1) output.Flush(flushToDisk: true); // the last block pays for reaching the disk
                    return block.Length;
                }, () => space.BeforeWriting(Block));
            using (var input = new FileStream(large, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.None))
                yield return Of(FileSystemPhases.LargeRead, p.LargeFileMiB, _ =>
                {
                    var total = 0;
                    int read;
                    while (total < Block && (read = input.Read(block, total, Block - total)) > 0) total += read;
                    return total;
                });
        }
    }

    /// <summary>
    /// One file operation, timed alone; a failed one (disk full, quota, permissions) is a sample with its error,
    /// and the phase goes on, as a user's extraction would report every file it could not write.
    /// </summary>
    sealed class FileOperation(string series, string phase, string tree, Func<long, long> operate, Action? before) : ILoadOperation
    {
        public ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
        {
            if (before is not null)
            {
                before(); // a check of the free space, not part of the operation
                operation.Clock.Start();
            }
            var bytes = operate(operation.Number);
            operation.Clock.Stop(); // as the file system answers, not once the outcome is back with the driver
            return ValueTask.FromResult(new Outcome { Series = series, Bytes = bytes });
        }

        public Outcome? Failed(Operation operation, Exception exception, bool timedOut) =>
            exception is IOException or UnauthorizedAccessException
                ? new Outcome { Series = series, Error = ErrorKind.Other, Note = $"{phase}: {exception.Message.Replace(tree, "{tree}")}" }
                : null;
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
