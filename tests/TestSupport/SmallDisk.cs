using System.Diagnostics;
using Microsoft.Data.Sqlite;

namespace BenchDashboard.TestSupport;

/// <summary>A small tmpfs mounted for one test (root only, as on this project's test machines), unmounted after: a disk that really fills.</summary>
public sealed class SmallDisk : IDisposable
{
    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "benchdashboard-tests", "disk-" + Guid.NewGuid().ToString("n"));

    SmallDisk(int mib)
    {
        Directory.CreateDirectory(Path);
        using var mount = Process.Start(AsRoot("mount", "-t", "tmpfs", "-o", $"size={mib}m,mode=1777", "tmpfs", Path))!;
        mount.WaitForExit();
        if (mount.ExitCode != 0)
            throw new InvalidOperationException($"A full-disk test needs to mount a tmpfs (as root, or with passwordless sudo as on CI runners): {mount.StandardError.ReadToEnd()}");
    }

    /// <summary>The command itself as root; through <c>sudo -n</c> otherwise (a GitHub runner's user has it).</summary>
    static ProcessStartInfo AsRoot(string command, params string[] arguments) =>
        Environment.UserName == "root"
            ? new ProcessStartInfo(command, arguments) { RedirectStandardError = true }
            : new ProcessStartInfo("sudo", ["-n", command, .. arguments]) { RedirectStandardError = true };

    public static SmallDisk Mount(int mib) => new(mib);

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        using var umount = Process.Start(AsRoot("umount", "-l", Path))!;
        umount.WaitForExit();
        try { Directory.Delete(Path); } catch (IOException) { }
    }
}
