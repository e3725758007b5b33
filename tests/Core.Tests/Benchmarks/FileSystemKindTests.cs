using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.Core.Runs;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class FileSystemKindTests
{
    [Fact]
    public void AStoredRunsPlannedSeriesComeFromItsParametersAloneWhateverIsOnDiskNowAndReadingMakesNothing()
    {
        using var dir = new TempDirectory();
        var tempRoot = dir.File("benchdashboard-fs");
        var allowed = Directory.CreateDirectory(dir.File("allowed")).FullName;
        IBenchmarkKind kind = new FileSystemKind(Options.Create(new RunLimits()), new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = tempRoot }, [allowed]));
        var stored = new Run { Kind = FileSystemKind.KindName, ParametersJson = Json.Serialize(new FileSystemParameters { Directories = ["temp", Path.Combine(allowed, "data")], LargeFileMiB = 0 }) };
        string[] expected = ["temp/create", "temp/read", "temp/stat", "temp/delete", "dir2/create", "dir2/read", "dir2/stat", "dir2/delete"];

        Assert.Equal(expected, kind.PlannedSeries(kind.Deserialize(stored.ParametersJson)));
        Assert.False(Path.Exists(tempRoot)); // a read creates no temp root

        // Links planted since the run: a new run there is refused, but the old run's series stay what they were.
        var victim = Directory.CreateDirectory(dir.File("victim")).FullName;
        Directory.CreateSymbolicLink(tempRoot, victim);
        Directory.CreateSymbolicLink(Path.Combine(allowed, "data"), victim);
        Assert.Equal(expected, kind.PlannedSeries(kind.Deserialize(stored.ParametersJson)));
        Assert.NotNull(new FileInfo(tempRoot).LinkTarget);
        Assert.Empty(Directory.EnumerateFileSystemEntries(victim));
    }
}
