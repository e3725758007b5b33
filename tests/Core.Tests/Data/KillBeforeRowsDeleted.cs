using System.Data.Common;
using Microsoft.EntityFrameworkCore.Diagnostics;
using Npgsql;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>
/// Kills a sample-row conversion (<see cref="BenchDashboard.Core.Data.SampleRowsUpgrade"/>) at its worst moment: the
/// <paramref name="killAt"/>-th run's blocks are written and verified in its transaction and its rows are about to be
/// deleted. On PostgreSQL the server ends the conversion's session (pg_terminate_backend), as it does for a client
/// that died; on SQLite the database files are copied as they are, which is what a process killed there leaves on
/// disk (<see cref="KilledCopy"/>), and the conversion here is stopped.
/// </summary>
sealed class KillBeforeRowsDeleted(int killAt, string? postgreSqlConnectionString, string sqlitePath, string killedCopyDirectory) : DbCommandInterceptor
{
    int deletes;

    /// <summary>On SQLite, the database as the kill left it; null until the kill.</summary>
    public string? KilledCopy { get; private set; }

    public bool Killed { get; private set; }

    public override async ValueTask<InterceptionResult<int>> NonQueryExecutingAsync(DbCommand command, CommandEventData eventData, InterceptionResult<int> result, CancellationToken ct = default)
    {
        if (!command.CommandText.StartsWith("DELETE FROM \"Samples\"", StringComparison.Ordinal) || ++deletes != killAt) return result;
        Killed = true;
        if (postgreSqlConnectionString is not null)
        {
            await using var other = new NpgsqlConnection(postgreSqlConnectionString);
            await other.OpenAsync(ct);
            await using var terminate = new NpgsqlCommand("SELECT pg_terminate_backend(@pid)", other);
            terminate.Parameters.AddWithValue("pid", ((NpgsqlConnection)command.Connection!).ProcessID);
            await terminate.ExecuteScalarAsync(ct);
            return result; // the DELETE goes to a session that is gone
        }
        KilledCopy = Path.Combine(killedCopyDirectory, Path.GetFileName(sqlitePath));
        foreach (var suffix in new[] { "", "-wal" })
            if (File.Exists(sqlitePath + suffix)) File.Copy(sqlitePath + suffix, KilledCopy + suffix);
        throw new OperationCanceledException("killed before the run's rows were deleted");
    }
}
