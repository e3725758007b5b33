using System.Data.Common;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Sets SQLite's max_page_count on every connection EF opens (the pragma does not persist in the file), so
/// the database cannot grow past <see cref="DatabaseOptions.MaxSizeMiB"/>: a write that would is refused
/// with SQLITE_FULL, as on a full disk.
/// </summary>
sealed class DatabaseSizeLimit(int maxSizeMiB) : DbConnectionInterceptor
{
    public override void ConnectionOpened(DbConnection connection, ConnectionEndEventData eventData) => Apply(connection);

    public override Task ConnectionOpenedAsync(DbConnection connection, ConnectionEndEventData eventData, CancellationToken ct = default)
    {
        Apply(connection);
        return Task.CompletedTask;
    }

    void Apply(DbConnection connection)
    {
        using var command = connection.CreateCommand();
        // max_page_count counts pages of the file's page size (4 KiB unless the file says otherwise); a PRAGMA takes no expression.
        command.CommandText = "PRAGMA page_size;";
        var pageSize = Convert.ToInt64(command.ExecuteScalar());
        command.CommandText = $"PRAGMA max_page_count = {(long)maxSizeMiB * 1024 * 1024 / pageSize};";
        command.ExecuteNonQuery();
    }
}
