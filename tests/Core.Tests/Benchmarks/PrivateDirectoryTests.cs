using System.Diagnostics;
using BenchDashboard.Core.Kinds.FileSystem;
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

        File.SetUnixFileMode(root, UnixFileMode.UserRead | UnixFileMode.UserExecute); // ours, but closed to writing
        Assert.Null(PrivateDirectory.Ensure(root));
        Assert.Equal(Private, File.GetUnixFileMode(root));
    }

    [Fact]
    public void FieldsStatxDidNotFillInAreNotTrusted()
    {
        const uint directory = 0x4000 | 0x1C0, uid = 1000;
        const uint all = PrivateDirectory.StatxType | PrivateDirectory.StatxMode | PrivateDirectory.StatxUid;
        Assert.Null(PrivateDirectory.Refusal("/tmp/root", all, directory, uid, uid));
        foreach (var missing in new[] { PrivateDirectory.StatxType, PrivateDirectory.StatxMode, PrivateDirectory.StatxUid })
            Assert.Contains("did not report its type, mode and owner", PrivateDirectory.Refusal("/tmp/root", all & ~missing, directory, uid, uid));
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

        // Handing a directory to another user takes root.
        Assert.True(Environment.IsPrivilegedProcess, "This test needs root: it gives a directory to another user (chown 12345) to see it refused.");
        var theirs = Directory.CreateDirectory(dir.File("theirs")).FullName;
        using (var chown = Process.Start(new ProcessStartInfo("chown", ["12345", theirs]) { RedirectStandardError = true })!)
        {
            var error = chown.StandardError.ReadToEnd();
            chown.WaitForExit();
            Assert.True(chown.ExitCode == 0, $"chown 12345 failed ({chown.ExitCode}): {error}");
        }
        Assert.Contains("belongs to another user (uid 12345)", PrivateDirectory.Ensure(theirs));
    }

    [Fact]
    public void TheTempRootIsRefusedWithItsReasonWhenItIsALink()
    {
        using var dir = new TempDirectory();
        var planted = dir.File("benchdashboard-fs");
        Directory.CreateSymbolicLink(planted, Directory.CreateDirectory(dir.File("victim")).FullName);
        var roots = new FileSystemRoots(new() { [FileSystemOptions.TempRoot] = planted }, []);

        var (location, error) = roots.Prepare("temp", 0);
        Assert.Null(location);
        Assert.StartsWith("The temp root cannot be used safely: ", error);
        Assert.Contains("symbolic link", error);
    }
}
