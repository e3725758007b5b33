using BenchDashboard.Core.Data;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Processing.Claiming;

/// <summary>
/// Who this runner is to the runs it owns: "{machine}/{slot}", the same after a restart and different for two
/// runners alive at once on one database. The slot is the lowest n for which this process holds an exclusive
/// lock on "{database}.runner{n}.lock"; the operating system releases the lock when a process dies, however
/// it dies, so a runner that finds a run 'running' under its own name knows its owner is gone and can
/// recover it at once instead of waiting for the heartbeat to go stale. On PostgreSQL the locks are this machine's
/// for that database, in the temp folder, not beside <c>Database:Path</c>: two processes on one machine with
/// different paths would otherwise both be "{machine}/1", and the second to start would end the first's runs as its own.
/// </summary>
public sealed class RunnerIdentity : IDisposable
{
    const int MaxSlots = 64;
    readonly FileStream? lockFile;

    public RunnerIdentity(IOptions<DatabaseOptions> database, IHostEnvironment environment)
    {
        var prefix = LockPrefix(database.Value, environment);
        for (var slot = 1; slot <= MaxSlots; slot++)
        {
            try
            {
                // FileShare.None is an exclusive flock on Unix: held until this process closes it or dies.
                lockFile = new FileStream($"{prefix}{slot}.lock", FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
                Name = $"{Environment.MachineName}/{slot}";
                return;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Another live runner holds this slot (or another user's did, and its file is not ours to open).
            }
        }
        // More runners than slots on one database: fall back to a name only this process has.
        Name = $"{Environment.MachineName}/pid{Environment.ProcessId}";
    }

    public string Name { get; }

    static string LockPrefix(DatabaseOptions database, IHostEnvironment environment)
    {
        if (!database.IsPostgreSql) return database.FullPath(environment) + ".runner";
        var server = new Npgsql.NpgsqlConnectionStringBuilder(database.ConnectionString);
        var which = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(
            System.Text.Encoding.UTF8.GetBytes($"{server.Host}:{server.Port}/{server.Database}")))[..16];
        var folder = Path.Combine(Path.GetTempPath(), "benchdashboard-runners");
        Directory.CreateDirectory(folder);
        return Path.Combine(folder, which + ".runner");
    }

    public void Dispose() => lockFile?.Dispose();
}
