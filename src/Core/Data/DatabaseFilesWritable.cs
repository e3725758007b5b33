using System.Data.Common;
using System.Runtime.InteropServices;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Refuses to open a connection while the database, its WAL or its WAL index cannot be written. SQLite maps the
/// WAL index (-shm) into memory; with the files made immutable under it, the next transaction touched a page
/// of that mapping the kernel refused and the process died of SIGBUS (seen in walTryBeginRead), with nothing
/// logged. Asked before SQLite is, the same condition is an ordinary "read-only" storage fault. access(2)
/// is used rather than opening the file: closing any descriptor of the file would drop SQLite's POSIX locks.
/// A file made unwritable during a transaction can still bring SQLite down; the next start recovers the run.
/// </summary>
sealed partial class DatabaseFilesWritable : DbConnectionInterceptor
{
    const int WriteAccess = 2; // W_OK
    static readonly System.Collections.Concurrent.ConcurrentDictionary<string, bool> Databases = new();
    readonly string databasePath;

    public DatabaseFilesWritable(string databasePath)
    {
        this.databasePath = databasePath;
        Databases[databasePath] = true;
    }

    /// <summary>Whether every database this process uses can be written (closing a connection is safe only then).</summary>
    public static bool AllWritable => Databases.Keys.All(path => Problem(path) is null);

    [DllImport("libc", SetLastError = true)]
    static extern int access(string path, int mode);

    public override InterceptionResult ConnectionOpening(DbConnection connection, ConnectionEventData eventData, InterceptionResult result)
    {
        Check();
        return result;
    }

    public override ValueTask<InterceptionResult> ConnectionOpeningAsync(DbConnection connection, ConnectionEventData eventData, InterceptionResult result, CancellationToken ct = default)
    {
        Check();
        return ValueTask.FromResult(result);
    }

    void Check()
    {
        if (Problem(databasePath) is { } problem) throw new SqliteException($"attempt to write a readonly database: {problem}", 8);
    }

    static string? Problem(string databasePath)
    {
        if (OperatingSystem.IsWindows()) return null;
        foreach (var file in new[] { databasePath, databasePath + "-wal", databasePath + "-shm" })
            if (File.Exists(file) && access(file, WriteAccess) != 0)
                return $"{Path.GetFileName(file)} cannot be written ({Marshal.GetLastPInvokeErrorMessage()})";
        return null;
    }
}
