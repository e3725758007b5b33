using System.Security.Cryptography;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.FileSystem;

/// <summary>
/// The same file work on every location, phase by phase: create a tree of many small files, read them all, list and
/// stat them, delete them, then write and read one large file sequentially in 1 MiB blocks (one sample per file
/// operation, one series per location and phase). Within a phase the locations take turns as a run's variants do
/// (<see cref="LoadDriver"/>): round k is file k on every location, the round's leader drawn
/// (<see cref="VariantTurns"/>), so whatever the machine does meanwhile (a cache warming, a neighbour's burst) falls
/// on every location alike and "ran first" cannot favour one. Each location works in a fresh folder of its own that
/// is removed afterwards, also after a failure or cancel.
/// </summary>
public sealed class FileSystemBenchmark(FileSystemRoots roots) : BenchmarkExecutor<FileSystemParameters>
{
    const int Block = 1024 * 1024;

    /// <summary>Small files in the temporary folder, the operations shared among their four phases; no large file.</summary>
    public override async Task<int?> WarmUpAsync(int operations, CancellationToken ct) =>
        await SelfWarmup.CountAnsweredAsync(this, new FileSystemParameters { Directories = [FileSystemOptions.TempRoot], FileCount = Math.Clamp(operations / 4, 1, 2000), LargeFileMiB = 0 }, ct);

    /// <summary>A location's label, its run's own folder in it, and the guard of its disk's free space.</summary>
    sealed record Place(string Label, string Tree, DiskSpaceGuard Space);

    public override async Task ExecuteAsync(RunContext context, FileSystemParameters p, CancellationToken ct)
    {
        var places = new List<Place>();
        for (var i = 0; i < p.Directories.Count; i++)
        {
            // Prepared again now: a link could have appeared since the run was queued.
            var (location, error) = roots.Prepare(p.Directories[i], i);
            if (location is null) throw new InvalidOperationException(error);
            var tree = Path.Combine(location.Path, $"run{context.Run.Id}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}");
            context.Notes.Add($"{location.Label}: {tree}");
            places.Add(new Place(location.Label, tree, new DiskSpaceGuard(roots, tree, location.Label)));
        }
        var made = new List<Place>();
        await new LoadDriver(context).RunAsync(new LoadPlan
        {
            SetUpAsync = _ =>
            {
                foreach (var place in places)
                {
                    Directory.CreateDirectory(place.Tree);
                    made.Add(place);
                }
                return Task.CompletedTask;
            },
            Phases = Phases(p, places),
            CleanUpAsync = _ =>
            {
                foreach (var place in made) CleanUp(place.Tree, place.Label, context.Notes);
                return Task.CompletedTask;
            },
        }, ct);
    }

    /// <summary>
    /// The phases, each prepared once the one before is done (the tree to stat is the one the phases before wrote):
    /// on one worker, round k runs operation k (on file k) at every location, the locations being the phase's variants.
    /// </summary>
    static IEnumerable<Phase> Phases(FileSystemParameters p, IReadOnlyList<Place> places)
    {
        var content = RandomNumberGenerator.GetBytes(p.FileBytes);
        var files = places.Select(place => Enumerable.Range(0, p.FileCount).Select(i => FilePath(place.Tree, i, p.FilesPerDirectory)).ToArray()).ToArray();
        var buffer = new byte[Math.Max(p.FileBytes, 1)];
        Phase Of(string phase, int count, Func<int, long, long> operate, Func<int, Action>? before = null) =>
            new(null, new SequentialLoad(count), new Turns(places.Select((place, l) =>
                new FileOperation(FileSystemPhases.Series(place.Label, phase), phase, place.Tree, i => operate(l, i), before?.Invoke(l))).ToArray()))
            { Variants = places.Count };

        var footprint = FileSystemParametersValidator.Footprint(p.FileBytes);
        yield return Of(FileSystemPhases.Create, p.FileCount, (l, i) =>
        {
            Directory.CreateDirectory(Path.GetDirectoryName(files[l][i])!); // a no-op once the folder exists
            File.WriteAllBytes(files[l][i], content);
            return content.Length;
        }, l => () => places[l].Space.BeforeWriting(footprint));
        yield return Of(FileSystemPhases.Read, p.FileCount, (l, i) =>
        {
            using var stream = new FileStream(files[l][i], FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.None);
            long total = 0;
            int read;
            while ((read = stream.Read(buffer)) > 0) total += read;
            return total;
        });
        // Listing and stat: walk each tree as `ls -lR` does, a sample per entry's metadata. The trees hold the same
        // entries unless a create failed; a location short of entry k reports that as the operation's failure.
        var entries = places.Select(place => new DirectoryInfo(place.Tree).EnumerateFileSystemInfos("*", SearchOption.AllDirectories).ToArray()).ToArray();
        yield return Of(FileSystemPhases.Stat, entries.Max(e => e.Length), (l, i) =>
        {
            if (i >= entries[l].Length) throw new IOException($"the tree holds {entries[l].Length} entries, fewer than the other locations'");
            entries[l][i].Refresh();
            return entries[l][i] is FileInfo f ? f.Length : 0;
        });
        yield return Of(FileSystemPhases.Delete, p.FileCount, (l, i) =>
        {
            File.Delete(files[l][i]);
            return 0;
        });

        if (p.LargeFileMiB > 0)
        {
            var block = RandomNumberGenerator.GetBytes(Block);
            var large = places.Select(place => Path.Combine(place.Tree, "large.bin")).ToArray();
            foreach (var place in places) place.Space.Check((long)p.LargeFileMiB * Block);
            var outputs = large.Select(path => new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1, FileOptions.None)).ToArray();
            try
            {
                yield return Of(FileSystemPhases.LargeWrite, p.LargeFileMiB, (l, i) =>
                {
                    outputs[l].Write(block);
                    if (i == p.LargeFileMiB - 1) outputs[l].Flush(flushToDisk: true); // the last block pays for reaching the disk
                    return block.Length;
                }, l => () => places[l].Space.BeforeWriting(Block));
            }
            finally
            {
                foreach (var output in outputs) output.Dispose();
            }
            var inputs = large.Select(path => new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.None)).ToArray();
            var blocks = places.Select(_ => new byte[Block]).ToArray();
            try
            {
                yield return Of(FileSystemPhases.LargeRead, p.LargeFileMiB, (l, _) =>
                {
                    var total = 0;
                    int read;
                    while (total < Block && (read = inputs[l].Read(blocks[l], total, Block - total)) > 0) total += read;
                    return total;
                });
            }
            finally
            {
                foreach (var input in inputs) input.Dispose();
            }
        }
    }

    /// <summary>A phase's operation at every location: the driver's variant is the location.</summary>
    sealed class Turns(FileOperation[] locations) : ILoadOperation
    {
        public ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct) => locations[operation.Variant].OperateAsync(operation, ct);

        public Outcome? Failed(Operation operation, Exception exception, bool timedOut) => locations[operation.Variant].Failed(operation, exception, timedOut);
    }

    /// <summary>
    /// One file operation, timed alone; a failed one (disk full, quota, permissions) is a sample with its error,
    /// and the phase goes on, as a user's extraction would report every file it could not write.
    /// </summary>
    sealed class FileOperation(string series, string phase, string tree, Func<long, long> operate, Action? before)
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
