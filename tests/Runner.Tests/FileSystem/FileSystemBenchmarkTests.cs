using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Runner.Tests.FileSystem;

public class FileSystemBenchmarkTests
{
    [Fact]
    public async Task EachLocationGetsEveryPhaseWithASamplePerOperationAndIsCleanedUp()
    {
        using var dir = new TempDirectory();
        var second = Directory.CreateDirectory(dir.File("second")).FullName;
        await using var host = await RunnerHost.CreateAsync(new() { ["FileSystem:AllowedRoots:0"] = second });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(
            new FileSystemParameters { Directories = ["temp", second], FileCount = 120, FileBytes = 1000, FilesPerDirectory = 25, LargeFileMiB = 2 }, null, default));

        await host.Host.StartAsync();
        var run = await host.UntilFinalAsync(runId);
        await host.Host.StopAsync();
        var samples = await host.SamplesAsync(runId);

        Assert.Equal(RunStatus.Completed, run.Status);
        var series = SeriesStatistics.From(samples).ToDictionary(s => s.Name, s => s.Statistics);
        foreach (var location in new[] { "temp", "dir2" })
        {
            Assert.Equal(120, series[$"{location}/create"].Count);
            Assert.Equal(120, series[$"{location}/read"].Count);
            Assert.Equal(120 + 5 + 1, series[$"{location}/stat"].Count); // 120 files in 5 folders inside 1 top folder
            Assert.Equal(120, series[$"{location}/delete"].Count);
            Assert.Equal(2, series[$"{location}/large-write"].Count);
            Assert.Equal(2, series[$"{location}/large-read"].Count);
            Assert.Equal(120_000, series[$"{location}/read"].TotalBytes); // every byte written was read back
            Assert.Equal(2 * 1024 * 1024, series[$"{location}/large-read"].TotalBytes);
            Assert.Equal(0, series[$"{location}/create"].Errors);
        }
        Assert.Equal(Enumerable.Range(0, samples.Count), samples.Select(s => s.Index));
        Assert.Empty(Directory.EnumerateFileSystemEntries(second)); // the run's tree is gone
        var notes = Json.Deserialize<RunNotes>(run.NotesJson!).Notes;
        Assert.Contains("temp: removed the run's folder.", notes);
        Assert.Contains("dir2: removed the run's folder.", notes);
    }

    [Fact]
    public async Task InEveryPhaseEachRoundRunsTheSameFileOnEveryLocationLedByTheLocationDrawnForIt()
    {
        using var dir = new TempDirectory();
        var (temp, content) = (Directory.CreateDirectory(dir.File("temp")).FullName, Directory.CreateDirectory(dir.File("content")).FullName);
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = temp, ["content"] = content }, []);
        var run = new Run { Id = 9, Kind = FileSystemKind.KindName, ParametersJson = Json.Serialize(new FileSystemParameters
            { Directories = ["temp", "content"], FileCount = 60, FileBytes = 100, FilesPerDirectory = 20, LargeFileMiB = 2 }) };
        var samples = new List<Sample>();
        var context = new BenchDashboard.Processing.Executing.RunContext(run, sample => { lock (samples) samples.Add(sample); return true; });

        await new BenchDashboard.Runner.FileSystem.FileSystemBenchmark(roots).ExecuteAsync(context, CancellationToken.None);

        // In the order they were recorded: phase after phase, and within a phase rounds of one operation per location.
        var recorded = samples.OrderBy(s => s.Index).ToList();
        Assert.Equal(Enumerable.Range(0, recorded.Count), recorded.Select(s => s.Index));
        var phases = recorded.Select(s => s.Series!.Split('/')[1]).Distinct().ToList();
        Assert.Equal(["create", "read", "stat", "delete", "large-write", "large-read"], phases);
        var leaders = new List<int>();
        foreach (var phase in phases)
        {
            var own = recorded.Where(s => s.Series!.EndsWith("/" + phase)).ToList();
            Assert.Equal(0, own.Count % 2);
            for (var round = 0; round < own.Count / 2; round++)
            {
                var pair = own.Skip(2 * round).Take(2).Select(s => s.Series!.Split('/')[0]).ToList();
                Assert.Equal(["content", "temp"], pair.Order()); // each location once a round
                var leader = pair[0] == "temp" ? 0 : 1;
                Assert.Equal(VariantTurns.First(round, 2), leader); // the leader drawn for the round (round 0: the order given)
                leaders.Add(leader);
            }
        }
        Assert.InRange(leaders.Count(l => l == 1), leaders.Count / 4, leaders.Count * 3 / 4); // neither location leads every round
        Assert.Empty(Directory.EnumerateFileSystemEntries(temp));
        Assert.Empty(Directory.EnumerateFileSystemEntries(content));
    }

    [Fact]
    public async Task ARunIsStoppedBeforeItTakesTheDiskBelowItsMarginAndItsFolderIsRemoved()
    {
        using var dir = new TempDirectory();
        var root = dir.File("root");
        // A margin no disk has: the first check, before the first file, stops the run.
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = root }, [], keepFreeBytes: long.MaxValue / 2);
        var run = new Run { Id = 7, Kind = FileSystemKind.KindName, ParametersJson = Json.Serialize(new FileSystemParameters { Directories = ["temp"], FileCount = 10 }) };
        var recorded = 0;
        var context = new BenchDashboard.Processing.Executing.RunContext(run, _ => { recorded++; return true; });

        var stopped = await Assert.ThrowsAsync<InvalidOperationException>(() => new BenchDashboard.Runner.FileSystem.FileSystemBenchmark(roots).ExecuteAsync(context, CancellationToken.None));

        Assert.StartsWith("temp: stopped before the disk filled up", stopped.Message);
        Assert.Equal(0, recorded);
        Assert.Empty(Directory.EnumerateFileSystemEntries(root)); // the run's folder is gone
        Assert.Contains("temp: removed the run's folder.", context.Notes.Notes);
    }

    [Theory]
    [InlineData(300, 256 * 1024, 0)] // 256 files of 256 KiB hold 64 MiB, far past a 4 MiB margin
    [InlineData(8, 256 * 1024, 40)]  // a large file bigger than the space left
    public async Task BigWritesAreStoppedBeforeTheyTakeTheDiskBelowHalfItsMarginAndTheDiskIsAskedSeldom(int fileCount, int fileBytes, int largeFileMiB)
    {
        const long Margin = 4L << 20, FreeAtStart = Margin + (10L << 20);
        using var dir = new TempDirectory();
        var root = dir.File("root");
        // A disk of its own: free space is what the run's files have not taken of what was free at the start.
        var asked = 0;
        long? Available(string folder)
        {
            asked++;
            return FreeAtStart - new DirectoryInfo(root).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);
        }
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = root }, [], keepFreeBytes: Margin, availableBytes: Available);
        var run = new Run { Id = 8, Kind = FileSystemKind.KindName, ParametersJson = Json.Serialize(new FileSystemParameters { Directories = ["temp"], FileCount = fileCount, FileBytes = fileBytes, LargeFileMiB = largeFileMiB }) };
        var samples = new List<Sample>();
        var context = new BenchDashboard.Processing.Executing.RunContext(run, sample => { samples.Add(sample); return true; });

        var stopped = await Assert.ThrowsAsync<InvalidOperationException>(() => new BenchDashboard.Runner.FileSystem.FileSystemBenchmark(roots).ExecuteAsync(context, CancellationToken.None));

        Assert.StartsWith("temp: stopped before the disk filled up", stopped.Message);
        // The most the tree held: its small files before they were deleted, or the large file's blocks after.
        long Written(string phase) => samples.Where(s => s.Series == $"temp/{phase}" && s.Error == ErrorKind.None).Sum(s => s.Bytes);
        var mostHeld = Math.Max(Written("create"), Written("large-write"));
        Assert.True(FreeAtStart - mostHeld >= Margin / 2, $"the run took the disk down to {(FreeAtStart - mostHeld) >> 10:N0} KiB free, below half the {Margin >> 10:N0} KiB margin");
        Assert.True(asked <= mostHeld / (Margin / 2) + 2, $"the disk was asked {asked} times for {mostHeld >> 10:N0} KiB written");
        Assert.Empty(Directory.EnumerateFileSystemEntries(root));
    }
}
