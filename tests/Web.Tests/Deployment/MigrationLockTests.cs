using System.Diagnostics;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;

namespace BenchDashboard.Web.Tests.Deployment;

/// <summary>
/// EF Core 9+ marks a migration under way with a row in __EFMigrationsLock and waits for it to go before it
/// migrates; a dashboard killed mid-migration leaves the row, and without recovery every later start waits forever.
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class MigrationLockTests(PublishedOutput published, Xunit.Abstractions.ITestOutputHelper output)
{
    [Fact]
    public async Task ADashboardKilledMidMigrationLeavesALockTheNextStartRemovesWithAWarning()
    {
        using var dir = new TempDirectory();
        var database = dir.File("bench.db");
        await KillDuringAMigrationAsync(dir, database);

        var port = PublishedAppTests.FreePort();
        await using var app = PublishedApp.Start(published.Folder, dir.Path, new() { ["ASPNETCORE_ENVIRONMENT"] = "Production" },
            "--urls", $"http://127.0.0.1:{port}", $"--Database:Path={database}", "--Runner:Process=none");
        using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
        var started = Stopwatch.StartNew();
        await app.UntilHealthyAsync(client);

        Assert.True(started.Elapsed < TimeSpan.FromSeconds(30), $"healthy after {started.Elapsed.TotalSeconds:N1} s");
        Assert.Contains("Removed a stale migration lock on " + database, app.Log);
        Assert.Equal(0L, Scalar(database, "SELECT COUNT(*) FROM __EFMigrationsLock"));
        Assert.Equal(Scalar(database, "SELECT COUNT(*) FROM __EFMigrationsHistory"), (long)MigrationCount());
    }

    /// <summary>
    /// Starts the dashboard on an empty file, and once its lock row is there takes SQLite's write lock, which
    /// stops the migration at its next write; SIGKILL then. A try whose migration ended before the write lock
    /// was had is started again on a new file.
    /// </summary>
    async Task KillDuringAMigrationAsync(TempDirectory dir, string database)
    {
        for (var attempt = 1; attempt <= 20; attempt++)
        {
            foreach (var file in Directory.EnumerateFiles(dir.Path)) File.Delete(file);
            var app = PublishedApp.Start(published.Folder, dir.Path, new() { ["ASPNETCORE_ENVIRONMENT"] = "Production" },
                "--urls", $"http://127.0.0.1:{PublishedAppTests.FreePort()}", $"--Database:Path={database}", "--Runner:Process=none");
            try
            {
                var deadline = Stopwatch.StartNew();
                while (deadline.Elapsed < TimeSpan.FromSeconds(30) && !LockRowPresent(database)) await Task.Delay(1);
                using var writer = Open(database);
                using (var begin = writer.CreateCommand()) { begin.CommandText = "BEGIN IMMEDIATE"; begin.ExecuteNonQuery(); }
                var applied = TableExists(writer, "__EFMigrationsHistory") ? Scalar(writer, "SELECT COUNT(*) FROM __EFMigrationsHistory") : 0;
                if (TableExists(writer, "__EFMigrationsLock") && Scalar(writer, "SELECT COUNT(*) FROM __EFMigrationsLock") == 1)
                {
                    Process.GetProcessById(app.Pid).Kill(); // SIGKILL
                    await app.StopAsync();
                    output.WriteLine($"attempt {attempt}: killed with the lock row present and {applied} of {MigrationCount()} migrations recorded");
                    return;
                }
            }
            finally
            {
                await app.DisposeAsync();
            }
        }
        Assert.Fail("No attempt caught the dashboard during its migration.");
    }

    static int MigrationCount() => typeof(Core.Data.BenchDbContext).Assembly.GetTypes()
        .Count(t => t.GetCustomAttributes(typeof(Microsoft.EntityFrameworkCore.Migrations.MigrationAttribute), false).Length > 0);

    static bool LockRowPresent(string database)
    {
        if (!File.Exists(database)) return false;
        try
        {
            using var connection = Open(database);
            return TableExists(connection, "__EFMigrationsLock") && Scalar(connection, "SELECT COUNT(*) FROM __EFMigrationsLock") > 0;
        }
        catch (SqliteException)
        {
            return false; // busy, or the file is still being made
        }
    }

    static SqliteConnection Open(string database)
    {
        var connection = new SqliteConnection($"Data Source={database};Mode=ReadWrite;Pooling=False;Default Timeout=30");
        connection.Open();
        return connection;
    }

    static bool TableExists(SqliteConnection connection, string table) =>
        Scalar(connection, $"SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '{table}'") > 0;

    static long Scalar(string database, string sql)
    {
        using var connection = Open(database);
        return Scalar(connection, sql);
    }

    static long Scalar(SqliteConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }
}
