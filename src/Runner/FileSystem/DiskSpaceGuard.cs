using BenchDashboard.Core.Kinds.FileSystem;

namespace BenchDashboard.Runner.FileSystem;

/// <summary>
/// Stops a run (failed, saying why) before its writes take a disk below <see cref="FileSystemRoots.KeepFreeBytes"/>.
/// Asking the disk for every file would cost more than many of the writes measured, so it is asked before the
/// first write, then again once the bytes written since the last answer would pass half the margin: unless
/// something else fills the disk too, it never drops below half the margin, whatever the file size. A write
/// checked on its own must fit above the whole margin. A margin of 0 keeps nothing free, so nothing is asked.
/// </summary>
sealed class DiskSpaceGuard(FileSystemRoots roots, string tree, string label)
{
    readonly long unaskedBudget = roots.KeepFreeBytes / 2;
    long unaskedBytes;
    bool asked;

    /// <summary>Before writing <paramref name="bytes"/>: asks the disk only when the writes since it last did would pass half the margin.</summary>
    public void BeforeWriting(long bytes)
    {
        if (roots.KeepFreeBytes <= 0) return;
        if (asked && unaskedBytes + bytes <= unaskedBudget)
        {
            unaskedBytes += bytes;
            return;
        }
        Check(bytes);
        unaskedBytes = bytes;
    }

    /// <summary>Asks the disk now whether <paramref name="bytes"/> fit above the margin (the whole large file before it is written).</summary>
    public void Check(long bytes)
    {
        if (roots.KeepFreeBytes <= 0) return;
        if (roots.SpareBytes(tree) is { } spare && spare < bytes)
            throw new InvalidOperationException($"{label}: stopped before the disk filled up: writing on would leave less than {roots.KeepFreeBytes / 1048576.0:N0} MiB free (FileSystem:KeepFreeMiB).");
        asked = true;
        unaskedBytes = 0;
    }
}
