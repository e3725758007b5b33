using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>The migration lock file: waiting is for another migrating process, not for an I/O error.</summary>
public class MigrationLockFileTests
{
    [Fact]
    public async Task AnotherProcessHoldingTheLockIsWaitedForAndAnyOtherIoErrorEndsTheStartWithItsReason()
    {
        using var dir = new TempDirectory();
        var database = dir.File("bench.db");
        await using var provider = DatabaseServices.For(database);

        Task waiting;
        using (new FileStream(database + ".migrate.lock", FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None))
        {
            waiting = provider.MigrateDatabaseAsync();
            await Task.Delay(700);
            Assert.False(waiting.IsCompleted); // held: it waits
        }
        await waiting.WaitAsync(TimeSpan.FromSeconds(30)); // let go: it migrates

        // A lock path that cannot be created (here: a link into a folder that does not exist) is no one's lock.
        using var other = new TempDirectory();
        var broken = other.File("bench.db");
        File.CreateSymbolicLink(broken + ".migrate.lock", Path.Combine(other.Path, "missing", "x.lock"));
        await using var failing = DatabaseServices.For(broken);
        var error = await Assert.ThrowsAnyAsync<IOException>(() => failing.MigrateDatabaseAsync().WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Contains(".migrate.lock", error.Message);
    }
}
