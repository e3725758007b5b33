using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Applies EF Core migrations. Only the dashboard calls <see cref="MigrateDatabaseAsync"/>; a runner on its own
/// waits for the schema (<see cref="WaitForSchemaAsync"/>), so two versions never migrate one file at once.
/// The file lock, the stale-lock repair, WAL and the reserve are SQLite's; PostgreSQL needs none of them.
/// </summary>
public static class DatabaseMigrator
{
    /// <summary>The row EF Core 9+ inserts on SQLite while it migrates and deletes when done (a kill leaves it).</summary>
    const string EfLockTable = "__EFMigrationsLock";

    /// <summary>
    /// The dashboard's start. A SQLite file that cannot be migrated stops it (the reason is on this machine). A
    /// PostgreSQL server that cannot be used (down, unreachable, a refused password) does not: the dashboard starts,
    /// its pages and /healthz say why (<see cref="StorageFault"/>), and the migration is tried again every
    /// <paramref name="retry"/> until it succeeds, so the dashboard recovers on its own when the server is back.
    /// </summary>
    public static async Task MigrateAtStartAsync(this IServiceProvider services, CancellationToken stopping, TimeSpan? retry = null)
    {
        var logger = services.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(DatabaseMigrator));
        var database = services.GetRequiredService<Microsoft.Extensions.Options.IOptions<DatabaseOptions>>().Value;
        if (!database.IsPostgreSql)
        {
            try
            {
                await services.MigrateDatabaseAsync(stopping);
            }
            catch (Exception ex) when (StorageFault.Of(ex) is { MayPass: false } fault)
            {
                // A damaged file, a full disk: nothing to wait for, and a stack trace would say less than this.
                var path = database.FullPath(services.GetRequiredService<Microsoft.Extensions.Hosting.IHostEnvironment>());
                throw new DatabaseUnusableException(
                    $"The results database {path} cannot be used: {fault.Reason}. Nothing was changed. Restore it from a backup, or move it aside " +
                    "(with its -wal and -shm files) to start with a new one, or set Database:Path to another file.", ex);
            }
            return;
        }
        if (await TryMigrateAsync(services, logger, stopping)) return;
        _ = Task.Run(async () =>
        {
            try
            {
                do await Task.Delay(retry ?? TimeSpan.FromSeconds(5), stopping);
                while (!await TryMigrateAsync(services, logger, stopping, quiet: true));
                logger.LogInformation("The PostgreSQL results database can be used again; migrations are applied");
            }
            catch (OperationCanceledException) { }
        }, stopping);
    }

    static async Task<bool> TryMigrateAsync(IServiceProvider services, ILogger logger, CancellationToken ct, bool quiet = false)
    {
        try
        {
            await services.MigrateDatabaseAsync(ct);
            return true;
        }
        catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
        {
            StorageFault.ForgetConnections();
            if (!quiet) logger.LogError("The PostgreSQL results database cannot be used: {Reason}. The dashboard starts anyway and tries again every few seconds; its pages and /healthz say why until then", fault.Reason);
            return false;
        }
    }

    /// <summary>
    /// Applies the pending migrations, then each <see cref="IMigratedDatabaseStep"/> the process registered (the
    /// dashboard brings its keys in; a runner or the history move registers none).
    /// </summary>
    public static async Task MigrateDatabaseAsync(this IServiceProvider services, CancellationToken ct = default)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var logger = scope.ServiceProvider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(DatabaseMigrator));
        if (db.IsPostgreSql())
        {
            // Npgsql's migrator holds a lock in the database while it works: dashboards starting together on one
            // server take turns, and the one that comes second finds nothing pending. No file, no reserve: the
            // server's disk is not this machine's.
            await db.Database.MigrateAsync(ct);
            await RunStepsAsync(services, ct);
            return;
        }
        var path = new SqliteConnectionStringBuilder(db.Database.GetConnectionString()).DataSource;
        await using (await HoldMigrationFileAsync(path, logger, ct))
        {
            await RemoveStaleLockAsync(db, path, logger, ct);
            await db.Database.MigrateAsync(ct);
        }
        // WAL lets the dashboard read while the runner writes samples; the setting persists in the file.
        await db.Database.ExecuteSqlRawAsync("PRAGMA journal_mode=WAL;", ct);
        scope.ServiceProvider.GetRequiredService<StorageReserve>().Ensure();
        await RunStepsAsync(services, ct);
    }

    static async Task RunStepsAsync(IServiceProvider services, CancellationToken ct)
    {
        foreach (var step in services.GetServices<IMigratedDatabaseStep>()) await step.RunAsync(services, ct);
    }

    /// <summary>
    /// An exclusive flock on <c>{database}.migrate.lock</c>, held while migrating: the operating system releases it
    /// however the process ends, so whoever holds it knows an EF lock row it finds belongs to a dead process.
    /// </summary>
    static async Task<FileStream> HoldMigrationFileAsync(string path, ILogger logger, CancellationToken ct)
    {
        var lockPath = path + ".migrate.lock";
        var waitingSaid = false;
        while (true)
        {
            try
            {
                return new FileStream(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException e) when (HeldByAnotherProcess(e) && !ct.IsCancellationRequested)
            {
                if (!waitingSaid) logger.LogInformation("Another process is applying migrations to {Database}; waiting for it to finish", path);
                waitingSaid = true;
                await Task.Delay(250, ct);
            }
        }
    }

    /// <summary>
    /// The lock is taken (EWOULDBLOCK from flock on Unix, a sharing or lock violation on Windows). Any other I/O
    /// error (a full or read-only disk, a missing folder) is not worth waiting for: it ends the start with its reason.
    /// </summary>
    static bool HeldByAnotherProcess(IOException e) =>
        e.HResult is 11 or unchecked((int)0x80070020) or unchecked((int)0x80070021);

    static async Task RemoveStaleLockAsync(BenchDbContext db, string path, ILogger logger, CancellationToken ct)
    {
        var tableExists = await db.Database.SqlQuery<int>($"SELECT COUNT(*) AS Value FROM sqlite_master WHERE type = 'table' AND name = {EfLockTable}").SingleAsync(ct) > 0;
        if (!tableExists) return;
        // No live process of ours is migrating (we hold the file), so a row here was left by one that was killed.
        var since = await db.Database.SqlQuery<string>($"SELECT Timestamp AS Value FROM __EFMigrationsLock").ToListAsync(ct);
        if (since.Count == 0) return;
        await db.Database.ExecuteSqlRawAsync("DELETE FROM __EFMigrationsLock", ct);
        logger.LogWarning("Removed a stale migration lock on {Database}, taken at {Since} by a process that ended during a migration; migrating now", path, since[0]);
    }

    /// <summary>
    /// Returns once every migration of this build is applied (by the dashboard), saying once that it waits and why.
    /// A runner must not write to a schema older than its own, nor apply migrations itself (exactly one place does).
    /// </summary>
    public static async Task WaitForSchemaAsync(this IServiceProvider services, ILogger logger, CancellationToken ct = default, TimeSpan? poll = null)
    {
        var waitingSaid = false;
        while (true)
        {
            await using (var scope = services.CreateAsyncScope())
            {
                var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
                var pending = (await db.Database.GetPendingMigrationsAsync(ct)).ToList();
                if (pending.Count == 0)
                {
                    if (waitingSaid) logger.LogInformation("The results database is up to date; starting");
                    return;
                }
                if (!waitingSaid)
                    logger.LogWarning("The results database {Database} lacks {Count} migration(s) of this build (the latest: {Latest}); " +
                        "the dashboard applies them when it starts: waiting for it", db.Database.GetDbConnection().DataSource, pending.Count, pending[^1]);
                waitingSaid = true;
            }
            await Task.Delay(poll ?? TimeSpan.FromSeconds(2), ct);
        }
    }
}

/// <summary>The results database cannot be opened or upgraded for a reason no wait will cure; its message says what to do.</summary>
public sealed class DatabaseUnusableException(string message, Exception inner) : Exception(message, inner);
