using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using BenchDashboard.Core.Benchmarks.FileSystem;

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
    public async Task ARunIsStoppedBeforeItTakesTheDiskBelowItsMarginAndItsFolderIsRemoved()
    {
        using var dir = new TempDirectory();
        var root = dir.File("root");
        // A margin no disk has: the first check, before the first file, stops the run.
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = root }, [], keepFreeBytes: long.MaxValue / 2);
        var run = new Run { Id = 7, Kind = FileSystemKind.KindName, ParametersJson = Json.Serialize(new FileSystemParameters { Directories = ["temp"], FileCount = 10 }) };
        var recorded = 0;
        var context = new BenchDashboard.Runner.Execution.RunContext(run, _ => { recorded++; return true; });

        var stopped = await Assert.ThrowsAsync<InvalidOperationException>(() => new BenchDashboard.Runner.FileSystem.FileSystemBenchmark(roots).ExecuteAsync(context, CancellationToken.None));

        Assert.StartsWith("temp: stopped before the disk filled up", stopped.Message);
        Assert.Equal(0, recorded);
        Assert.Empty(Directory.EnumerateFileSystemEntries(root)); // the run's folder is gone
        Assert.Contains("temp: removed the run's folder.", context.Notes.Notes);
    }
}
