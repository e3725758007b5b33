using Microsoft.Data.Sqlite;
using Npgsql;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Why the results database refused a write, in words a reader can act on, and whether waiting may help
/// (a lock is released, a failing disk recovers, a file is made writable again, a restarted server is back).
/// A full disk, a damaged file and a refused password are not worth waiting for.
/// </summary>
public sealed record StorageFault(string Reason, bool MayPass)
{
    /// <summary>
    /// After a fault, pooled connections are closed so the next attempt opens a fresh one: after an I/O error
    /// a SQLite connection stays broken even once the file is writable again, and after a PostgreSQL restart
    /// every pooled connection is dead. Not while SQLite's files cannot be written: closing the last connection
    /// checkpoints through the WAL index, which then kills the process (SIGBUS, <see cref="DatabaseFilesWritable"/>);
    /// until they can, no connection is opened anyway.
    /// </summary>
    public static void ForgetConnections()
    {
        if (DatabaseFilesWritable.AllWritable) SqliteConnection.ClearAllPools();
        NpgsqlConnection.ClearAllPools();
    }

    /// <summary>The write broke a unique index (two writers took one name at once): the caller's error, not the store's.</summary>
    public static bool IsUniqueViolation(Exception ex)
    {
        for (var e = ex; e is not null; e = e.InnerException)
        {
            if (e is SqliteException { SqliteErrorCode: 19, SqliteExtendedErrorCode: 2067 or 1555 }) return true; // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY
            if (e is PostgresException { SqlState: "23505" }) return true;
        }
        return false;
    }

    /// <summary>The store is out of room: SQLITE_FULL (a full disk, or Database:MaxSizeMiB), PostgreSQL's disk full (53100).</summary>
    public static bool IsFull(Exception ex)
    {
        for (var e = ex; e is not null; e = e.InnerException)
            if (e is SqliteException { SqliteErrorCode: 13 } or PostgresException { SqlState: "53100" }) return true;
        return false;
    }

    public static StorageFault? Of(Exception ex)
    {
        for (var e = ex; e is not null; e = e.InnerException)
        {
            if (e is SqliteException sqlite) return Of(sqlite);
            if (e is PostgresException postgres) return Of(postgres);
            if (e is NpgsqlException npgsql) return Of(npgsql);
        }
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

    /// <summary>The server answered with an error (SQLSTATE); its message names no password.</summary>
    static StorageFault Of(PostgresException ex) => ex.SqlState switch
    {
        "28P01" or "28000" => new($"the PostgreSQL server refused the sign-in (SQLSTATE {ex.SqlState}: {ex.MessageText}): check ConnectionStrings:results", false),
        "3D000" => new($"the PostgreSQL database does not exist ({ex.MessageText})", false),
        "53100" => new("the PostgreSQL server's disk is full (SQLSTATE 53100)", false), // as SQLITE_FULL
        "53300" => new("the PostgreSQL server has too many connections (SQLSTATE 53300)", true),
        "57P01" or "57P02" or "57P03" => new($"the PostgreSQL server is shutting down or starting (SQLSTATE {ex.SqlState})", true),
        "40001" or "40P01" or "55P03" => new($"a PostgreSQL lock or serialization conflict (SQLSTATE {ex.SqlState})", true),
        "25006" => new("the PostgreSQL server is read-only (a standby, SQLSTATE 25006)", true),
        _ when ex.SqlState.StartsWith("08", StringComparison.Ordinal) => new($"the connection to the PostgreSQL server failed (SQLSTATE {ex.SqlState})", true),
        _ when ex.SqlState.StartsWith("23", StringComparison.Ordinal) || ex.SqlState.StartsWith("42", StringComparison.Ordinal)
            => new($"PostgreSQL error {ex.SqlState}: {ex.MessageText}", false), // a constraint or a statement: a bug, not a passing fault
        _ => new($"PostgreSQL error {ex.SqlState}: {ex.MessageText}", true),
    };

    /// <summary>No answer from the server: refused, reset, timed out. A restart or a network blip passes.</summary>
    static StorageFault Of(NpgsqlException ex) =>
        new($"the PostgreSQL server cannot be reached ({(ex.InnerException ?? ex).Message})", true);
}
