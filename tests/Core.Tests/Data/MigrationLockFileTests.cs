using BenchDashboard.Core.Data;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Core.Tests.Data;

/// <summary>The migration lock file: waiting is for another migrating process, not for an I/O error.</summary>
public class MigrationLockFileTests
{
    [Fact]
    public async Task AnotherProcessHoldingTheLockIsWaitedForAndAnyOtherIoErrorEndsTheStartWithItsReason()
    {
        using var dir = new TempDirectory();
        var database = dir.File("bench.db");
        await using var provider = Services(dir, database);

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
        await using var failing = Services(other, broken);
        var error = await Assert.ThrowsAnyAsync<IOException>(() => failing.MigrateDatabaseAsync().WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Contains(".migrate.lock", error.Message);
    }

    static ServiceProvider Services(TempDirectory dir, string database)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = dir.Path, EnvironmentName = "Production" });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["Database:Path"] = database }).Build());
        services.AddLogging();
        services.AddBenchCore();
        return services.BuildServiceProvider();
    }
}
