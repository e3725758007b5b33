using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>What the upgrade tests do to a results file outside EF Core: load the EF Core 6 build's dump, read rows back as text.</summary>
static class SqliteFiles
{
    /// <summary>Writes <see cref="Ef6Database"/> into the file at <paramref name="path"/>.</summary>
    public static void LoadEf6(string path)
    {
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False");
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = Ef6Database.Sql;
        command.ExecuteNonQuery();
    }

    public static List<string> Columns(string path, string table) => Rows(path, $"SELECT name FROM pragma_table_info('{table}')");

    /// <summary>Each row the query returns, its columns joined by " | ", NULL as "NULL".</summary>
    public static List<string> Rows(string path, string sql)
    {
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False;Mode=ReadOnly");
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        var rows = new List<string>();
        while (reader.Read())
            rows.Add(string.Join(" | ", Enumerable.Range(0, reader.FieldCount).Select(i => reader.IsDBNull(i) ? "NULL" : Convert.ToString(reader.GetValue(i), System.Globalization.CultureInfo.InvariantCulture))));
        return rows;
    }
}
