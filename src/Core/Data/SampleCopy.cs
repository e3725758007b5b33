using BenchDashboard.Core.Runs;
using Npgsql;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Samples into PostgreSQL with one binary COPY: no statement per row (bench/README.md, ingest). Used by the runner's
/// sample writer for each batch and by the history move (<see cref="Moving.HistoryMove"/>) for each run.
/// </summary>
public static class SampleCopy
{
    static readonly string CopySql =
        $"COPY \"Samples\" ({string.Join(", ", SampleColumns.All.Select(c => $"\"{c.Name}\""))}) FROM STDIN (FORMAT BINARY)";

    /// <summary>
    /// Writes the samples with blocking calls on the connection's current transaction, if any (so a failed COPY
    /// stores nothing); returns how many were written. Each value is written as its CLR type, which is the
    /// column's (EF maps the same properties). Blocking on purpose: the sample writer must not resume on the
    /// runner's event thread (SampleWriter's Save).
    /// </summary>
    public static long Write(NpgsqlConnection connection, IEnumerable<Sample> samples)
    {
        var columns = SampleColumns.All;
        using var importer = connection.BeginBinaryImport(CopySql);
        foreach (var s in samples)
        {
            importer.StartRow();
            foreach (var column in columns)
            {
                switch (column.DatabaseValue(s))
                {
                    case DBNull: importer.WriteNull(); break;
                    case long value: importer.Write(value); break;
                    case int value: importer.Write(value); break;
                    case bool value: importer.Write(value); break;
                    case string value: importer.Write(value); break;
                    case var value: throw new InvalidOperationException($"Sample column {column.Name} has a type COPY is not told about: {value.GetType().Name}");
                }
            }
        }
        return (long)importer.Complete();
    }
}
