using System.Security.Cryptography;
using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Security;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Web.Tests.Security;

/// <summary>
/// A database of the build before the keys moved into it (the key ring a folder of ASP.NET Core's, the fingerprint
/// key a file beside the database, protected by that ring) opened by this one: its runs stay, the ring's keys are
/// copied in, so what the old ring protected (a sign-in cookie) still reads, and the fingerprint key is the old one.
/// </summary>
public sealed class SharedKeysUpgradeTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    /// <summary>The last migration of each provider before the keys' tables.</summary>
    static string LastBefore(string provider) => provider == "sqlite" ? "20261125051623_BenchmarkWebhooks" : "20261125084736_InitialSchema";

    [Theory, MemberData(nameof(Providers))]
    public async Task TheKeyRingOnDiskAndTheFingerprintKeyMoveIntoTheDatabaseAndStillWork(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        using var oldRing = new TempDirectory();
        var settings = new Dictionary<string, string?>(database.Settings) { ["Database:LegacyKeyRingPath"] = oldRing.Path };

        // What the previous build left: a ring on disk, the fingerprint key protected by it, a cookie it signed.
        var before = DataProtectionProvider.Create(new DirectoryInfo(oldRing.Path), b => b.SetApplicationName("BenchDashboard"));
        var oldFingerprintKey = RandomNumberGenerator.GetBytes(32);
        await File.WriteAllTextAsync(database.DatabasePath + ".fingerprint-key", before.CreateProtector(ParameterDisplay.Purpose).Protect(Convert.ToBase64String(oldFingerprintKey)));
        var oldCookie = before.CreateProtector("a sign-in cookie").Protect("alice");
        var oldKeys = Directory.GetFiles(oldRing.Path, "key-*.xml").Length;
        Assert.True(oldKeys > 0);

        await using (var old = DashboardServices(settings))
        await using (var scope = old.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            await db.GetService<IMigrator>().MigrateAsync(LastBefore(provider));
            // In that build's columns: today's Run has columns its table did not have yet.
            await db.Database.ExecuteSqlRawAsync(
                $"INSERT INTO \"Runs\" (\"Kind\", \"ParametersJson\", \"Status\", \"QueuedUtcMs\", \"CompletedRequests\", \"CancelRequested\") VALUES ('{HttpKind.KindName}', '[]', 'Completed', 1, 0, FALSE)");
        }

        await using var upgraded = DashboardServices(settings);
        await upgraded.MigrateDatabaseAsync();

        var expected = new ParameterDisplay(oldFingerprintKey).Fingerprint("Bearer s3cret");
        Assert.Equal(expected, upgraded.GetRequiredService<ParameterDisplay>().Fingerprint("Bearer s3cret"));
        Assert.Equal("alice", upgraded.GetRequiredService<IDataProtectionProvider>().CreateProtector("a sign-in cookie").Unprotect(oldCookie));
        await using (var scope = upgraded.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            Assert.Empty(await db.Database.GetPendingMigrationsAsync());
            Assert.Equal(1, await db.Runs.CountAsync());
            Assert.Equal(oldKeys, await db.KeyRing.CountAsync());
        }

        // The next start (the file and folder still there, or gone) copies nothing twice and keeps the key.
        await using var restarted = DashboardServices(settings);
        await restarted.MigrateDatabaseAsync();
        Assert.Equal(expected, restarted.GetRequiredService<ParameterDisplay>().Fingerprint("Bearer s3cret"));
        await using (var scope = restarted.CreateAsyncScope())
            Assert.Equal(oldKeys, await scope.ServiceProvider.GetRequiredService<BenchDbContext>().KeyRing.CountAsync());
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task ANewInstallationMakesOneKeyRingAndOneFingerprintKey(string provider)
    {
        await using var database = await TestDatabase.CreateAsync(provider);
        using var noRing = new TempDirectory();
        var settings = new Dictionary<string, string?>(database.Settings) { ["Database:LegacyKeyRingPath"] = noRing.Path };
        await using var services = DashboardServices(settings);

        await services.MigrateDatabaseAsync();

        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        Assert.Equal(1, await db.KeyRing.CountAsync());
        var stored = Convert.FromBase64String(await db.InstallationKeys.Where(k => k.Name == InstallationKeys.FingerprintKeyName).Select(k => k.Value).SingleAsync());
        Assert.Equal(32, stored.Length);
        Assert.Equal(new ParameterDisplay(stored).Fingerprint("x"), services.GetRequiredService<ParameterDisplay>().Fingerprint("x"));
    }

    /// <summary>The results database's services and the dashboard's key ring, as the dashboard registers them in Production.</summary>
    static ServiceProvider DashboardServices(Dictionary<string, string?> settings)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IHostEnvironment>(new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = Path.GetDirectoryName(settings["Database:Path"])!, EnvironmentName = "Production" });
        services.AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(settings).Build());
        services.AddLogging();
        services.AddBenchCore();
        services.AddSharedKeys();
        return services.BuildServiceProvider();
    }
}
