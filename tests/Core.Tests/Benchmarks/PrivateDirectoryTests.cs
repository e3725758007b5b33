using System.Diagnostics;
using BenchDashboard.Core.Benchmarks.FileSystem;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Benchmarks;

/// <summary>The temp root in a folder every local user can write in: made private, or refused when someone else got there first.</summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public class PrivateDirectoryTests
{
    static UnixFileMode Private => UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;

    [Fact]
    public void AMissingRootIsCreatedOwnerOnlyAndAnOpenOneOfOursIsClosed()
    {
        using var dir = new TempDirectory();
        var root = dir.File("root");
        Assert.Null(PrivateDirectory.Ensure(root));
        Assert.Equal(Private, File.GetUnixFileMode(root));

        File.SetUnixFileMode(root, Private | UnixFileMode.OtherWrite | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
        Assert.Null(PrivateDirectory.Ensure(root));
        Assert.Equal(Private, File.GetUnixFileMode(root));
    }

    [Fact]
    public void APlantedLinkAFileOrAnotherUsersDirectoryIsRefused()
    {
        using var dir = new TempDirectory();
        var target = Directory.CreateDirectory(dir.File("elsewhere")).FullName;
        var link = dir.File("link");
        Directory.CreateSymbolicLink(link, target);
        Assert.Contains("is a symbolic link", PrivateDirectory.Ensure(link));
        File.Delete(link);
        File.CreateSymbolicLink(link, dir.File("dangling")); // a link to nothing yet: mkdir must not follow it
        Assert.Contains("is a symbolic link", PrivateDirectory.Ensure(link));
        Assert.False(Directory.Exists(dir.File("dangling")));

        var file = dir.File("file");
        File.WriteAllText(file, "x");
        Assert.Contains("is not a directory", PrivateDirectory.Ensure(file));

        var theirs = Directory.CreateDirectory(dir.File("theirs")).FullName;
        Process.Start("chown", ["12345", theirs])!.WaitForExit();
        Assert.Contains("belongs to another user (uid 12345)", PrivateDirectory.Ensure(theirs));
    }

    [Fact]
    public void TheTempRootIsRefusedWithItsReasonWhenItIsALink()
    {
        using var dir = new TempDirectory();
        var planted = dir.File("benchdashboard-fs");
        Directory.CreateSymbolicLink(planted, Directory.CreateDirectory(dir.File("victim")).FullName);
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = planted }, []);

        var (location, error) = roots.Resolve("temp", 0);
        Assert.Null(location);
        Assert.StartsWith("The temp root cannot be used safely: ", error);
        Assert.Contains("symbolic link", error);
    }
}
