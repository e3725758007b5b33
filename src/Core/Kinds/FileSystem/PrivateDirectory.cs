using System.Runtime.InteropServices;
using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Kinds.FileSystem;

/// <summary>
/// A root the file-system kind works in, made safe in a folder others may write in (the temp folder): on
/// Linux it is created 0700 by this process (mkdir fails if any entry, a planted link included, has the name),
/// and then checked with statx without following links: a directory, owned by this process's user, private.
/// Another user's directory or a link planted there in advance is refused, not used.
/// </summary>
public static class PrivateDirectory
{
    const int AtFdCwd = -100, AtSymlinkNoFollow = 0x100, EExist = 17;
    internal const uint StatxType = 0x1, StatxMode = 0x2, StatxUid = 0x8;
    const uint TypeMask = 0xF000, Directory = 0x4000, Link = 0xA000, PermissionBits = 0x1FF, OwnerOnly = 0x1C0;

    /// <summary>Null when <paramref name="path"/> is a private directory of this process's user (created if missing), else why not.</summary>
    public static string? Ensure(string path)
    {
        if (!OperatingSystem.IsLinux())
        {
            // Elsewhere the per-user temp folder is already private; a link is still refused.
            if (new FileInfo(path).LinkTarget is { } target) return $"'{path}' is a symbolic link (to {target}); remove it or choose another root.";
            System.IO.Directory.CreateDirectory(path);
            return null;
        }
        if (mkdir(path, OwnerOnly) != 0 && Marshal.GetLastPInvokeError() is var errno && errno != EExist)
            return $"'{path}' could not be created: {Marshal.GetPInvokeErrorMessage(errno)}.";
        if (statx(AtFdCwd, path, AtSymlinkNoFollow, StatxType | StatxMode | StatxUid, out var status) != 0)
            return $"'{path}' cannot be examined: {Marshal.GetPInvokeErrorMessage(Marshal.GetLastPInvokeError())}.";
        if (Refusal(path, status.Mask, status.Mode, status.Uid, geteuid()) is { } refusal) return refusal;
        if ((status.Mode & PermissionBits) == OwnerOnly) return null;
        // Ours, but open to others or closed to us (made by an older version, or changed since): made exactly 0700 again.
        try
        {
            File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"'{path}' is not private (mode {Convert.ToString(status.Mode & PermissionBits, 8)}) and could not be made so: {ex.Message}";
        }
    }

    /// <summary>Why the entry statx described cannot be the root, or null; fields statx did not fill in (missing from <paramref name="mask"/>) are not trusted.</summary>
    internal static string? Refusal(string path, uint mask, uint mode, uint uid, uint euid)
    {
        const uint Read = StatxType | StatxMode | StatxUid;
        if ((mask & Read) != Read)
            return $"'{path}' cannot be checked: its file system did not report its type, mode and owner (statx mask 0x{mask:x}); choose another root.";
        var type = mode & TypeMask;
        if (type == Link) return $"'{path}' is a symbolic link, not a directory this process made; remove it (someone else may have planted it) or choose another root.";
        if (type != Directory) return $"'{path}' is not a directory; remove it or choose another root.";
        if (uid != euid) return $"'{path}' belongs to another user (uid {uid}); remove it (someone else may have planted it) or choose another root.";
        return null;
    }

    /// <summary>The leading fields of Linux's <c>struct statx</c> (the same on every architecture; 256 bytes in all).</summary>
    [StructLayout(LayoutKind.Explicit, Size = 256)]
    struct Statx
    {
        [FieldOffset(0)] public uint Mask;
        [FieldOffset(20)] public uint Uid;
        [FieldOffset(28)] public ushort Mode;
    }

    [DllImport("libc", SetLastError = true)]
    static extern int mkdir([MarshalAs(UnmanagedType.LPUTF8Str)] string path, uint mode);

    [DllImport("libc", SetLastError = true)]
    static extern int statx(int dirfd, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags, uint mask, out Statx buffer);

    [DllImport("libc")]
    static extern uint geteuid();
}
