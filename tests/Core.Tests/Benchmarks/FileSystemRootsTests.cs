using BenchDashboard.Core.Benchmarks;
using BenchDashboard.TestSupport;
using BenchDashboard.Core.Benchmarks.FileSystem;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class FileSystemRootsTests
{
    [Fact]
    public void NamedRootsAndPathsUnderAllowedRootsResolveAndNothingElseDoes()
    {
        using var dir = new TempDirectory();
        var allowed = Directory.CreateDirectory(dir.File("allowed")).FullName;
        var roots = new FileSystemRoots(new() { ["temp"] = dir.File("named") }, [allowed]);

        Assert.Equal(new FileSystemLocation("temp", dir.File("named")), roots.Resolve("temp", 0).Location);
        Assert.Equal(new FileSystemLocation("dir2", Path.Combine(allowed, "a", "b")), roots.Resolve(Path.Combine(allowed, "a", "b"), 1).Location);

        Assert.Contains("outside the allowed roots", roots.Resolve("/etc", 0).Error);
        Assert.Contains("outside the allowed roots", roots.Resolve(Path.Combine(allowed, "..", "escape"), 0).Error); // ".." climbs out
        Assert.Contains("outside the allowed roots", roots.Resolve(allowed + "-sibling", 0).Error);                 // a prefix is not a parent
        Assert.Contains("neither a named root", roots.Resolve("relative/path", 0).Error);
    }

    [Fact]
    public void ASymbolicLinkBelowARootIsRefused()
    {
        using var dir = new TempDirectory();
        var allowed = Directory.CreateDirectory(dir.File("allowed")).FullName;
        Directory.CreateSymbolicLink(Path.Combine(allowed, "link"), "/etc");
        var roots = new FileSystemRoots([], [allowed]);

        Assert.Contains("symbolic link", roots.Resolve(Path.Combine(allowed, "link"), 0).Error);
        Assert.Contains("symbolic link", roots.Resolve(Path.Combine(allowed, "link", "deeper"), 0).Error);
    }
}
