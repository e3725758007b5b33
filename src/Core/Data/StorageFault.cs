using Microsoft.Data.Sqlite;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Why the results database refused a write, in words a reader can act on, and whether waiting may help
/// (a lock is released, a failing disk recovers, a file is made writable again). A full disk and a damaged
/// file are not worth waiting for.
/// </summary>
public sealed record StorageFault(string Reason, bool MayPass)
{
    /// <summary>
    /// After a fault, pooled connections are closed so the next attempt opens a fresh one: after an I/O error
    /// a SQLite connection stays broken even once the file is writable again. Not while the files cannot be
    /// written: closing the last connection checkpoints through the WAL index, which then kills the process
    /// (SIGBUS, <see cref="DatabaseFilesWritable"/>); until they can, no connection is opened anyway.
    /// </summary>
    public static void ForgetConnections()
    {
        if (DatabaseFilesWritable.AllWritable) SqliteConnection.ClearAllPools();
    }

    public static StorageFault? Of(Exception ex)
    {
        for (var e = ex; e is not null; e = e.InnerException)
            if (e is SqliteException sqlite) return Of(sqlite);
        return null;
    }

    static StorageFault Of(SqliteException ex) => ex.SqliteErrorCode switch
    {
        5 => new("the database is locked by another connection (SQLITE_BUSY)", true),
        6 => new("a table is locked (SQLITE_LOCKED)", true),
        8 => new("the database is read-only (SQLITE_READONLY)", true),
        10 => new($"the disk reported an I/O error (SQLITE_IOERR, extended code {ex.SqliteExtendedErrorCode})", true),
        13 => new("the database or its disk is full (SQLITE_FULL)", false), // waiting does not free space
        14 => new("the database file cannot be opened (SQLITE_CANTOPEN)", true),
        11 or 26 => new($"the database file is damaged or not a database (SQLite error {ex.SqliteErrorCode})", false),
        _ => new($"SQLite error {ex.SqliteErrorCode}: {ex.Message}", true),
    };
}
