using BenchDashboard.Core.Runs;
using Microsoft.Data.Sqlite;
using SQLitePCL;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Samples into SQLite with one prepared INSERT stepped once per sample through SQLite's own API (SQLitePCLRaw, the
/// library under Microsoft.Data.Sqlite), the values bound without boxing. Through ADO.NET the same INSERT cost
/// 3.9-5.0 µs of CPU and 1,890 allocated bytes a sample, most of the runner's allocations per request; this way
/// 1.6 µs and 9 bytes (bench/README.md, sample ingest). The SQLite counterpart of <see cref="SampleCopy"/>.
/// </summary>
public static class SampleInsert
{
    static readonly string InsertSql =
        $"INSERT INTO Samples ({string.Join(", ", SampleColumns.All.Select(c => $"\"{c.Name}\""))}) VALUES ({string.Join(", ", SampleColumns.All.Select((_, i) => $"?{i + 1}"))})";

    /// <summary>
    /// Writes the samples on the connection's current transaction (the caller's: a failed batch stores nothing).
    /// A failure is thrown as Microsoft.Data.Sqlite throws it (<see cref="SqliteException"/> with SQLite's code), so a
    /// full disk or a read-only file reads the same to <see cref="StorageFault"/> as through ADO.NET.
    /// </summary>
    public static void Write(SqliteConnection connection, IEnumerable<Sample> samples)
    {
        var db = connection.Handle ?? throw new InvalidOperationException("The SQLite connection is not open.");
        Check(raw.sqlite3_prepare_v2(db, InsertSql, out var statement), db);
        using (statement)
        {
            var columns = SampleColumns.All;
            foreach (var sample in samples)
            {
                for (var i = 0; i < columns.Count; i++) Check(Bind(statement, i + 1, columns[i], sample), db);
                var stepped = raw.sqlite3_step(statement);
                // Reset at once: a statement left mid-step would keep the failed row's work open in the transaction.
                raw.sqlite3_reset(statement);
                if (stepped != raw.SQLITE_DONE) SqliteException.ThrowExceptionForRC(stepped, db);
            }
        }
    }

    static int Bind(sqlite3_stmt statement, int at, SampleColumn column, Sample sample)
    {
        if (column.Integer is { } integer)
            return integer(sample) is { } value ? raw.sqlite3_bind_int64(statement, at, value) : raw.sqlite3_bind_null(statement, at);
        return column.Read(sample) is string text ? raw.sqlite3_bind_text(statement, at, text) : raw.sqlite3_bind_null(statement, at);
    }

    static void Check(int rc, sqlite3 db)
    {
        if (rc != raw.SQLITE_OK) SqliteException.ThrowExceptionForRC(rc, db);
    }
}
