using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.FileSystem;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class FileSystemRootsTests
{
    [Fact]
    public void NamedRootsAndPathsUnderAllowedRootsResolveAndNothingElseDoes()
    {
        using var dir = new TempDirectory();
        var allowed = Directory.CreateDirectory(dir.File("allowed")).FullName;
        var roots = new FileSystemRoots(new() { ["temp"] = dir.File("named") }, [allowed]);

        Assert.Equal(new FileSystemLocation("temp", dir.File("named")), roots.Locate("temp", 0).Location);
        Assert.False(Path.Exists(dir.File("named"))); // locating makes nothing
        Assert.Equal(new FileSystemLocation("dir2", Path.Combine(allowed, "a", "b")), roots.Locate(Path.Combine(allowed, "a", "b"), 1).Location);

        Assert.Contains("outside the allowed roots", roots.Locate("/etc", 0).Error);
        Assert.Contains("outside the allowed roots", roots.Locate(Path.Combine(allowed, "..", "escape"), 0).Error); // ".." climbs out
        Assert.Contains("outside the allowed roots", roots.Locate(allowed + "-sibling", 0).Error);                 // a prefix is not a parent
        Assert.Contains("neither a named root", roots.Locate("relative/path", 0).Error);
    }

    [Fact]
    public void ASymbolicLinkBelowARootIsRefusedForWritingThoughItsLabelIsStillKnown()
    {
        using var dir = new TempDirectory();
        var allowed = Directory.CreateDirectory(dir.File("allowed")).FullName;
        Directory.CreateSymbolicLink(Path.Combine(allowed, "link"), "/etc");
        var roots = new FileSystemRoots([], [allowed]);

        Assert.Equal("dir1", roots.Locate(Path.Combine(allowed, "link"), 0).Location?.Label);
        Assert.Contains("symbolic link", roots.Prepare(Path.Combine(allowed, "link"), 0).Error);
        Assert.Contains("symbolic link", roots.Prepare(Path.Combine(allowed, "link", "deeper"), 0).Error);
    }
}
