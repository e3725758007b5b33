using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.DataProtection.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Web.Security;

/// <summary>
/// The key ring's table in the results database as ASP.NET Core's data-protection store for EF Core reads and
/// writes it. The table is the results database's own (<see cref="KeyRingElement"/>, created by its migrations):
/// this context only reaches it.
/// </summary>
public sealed class KeyRingContext(DbContextOptions<KeyRingContext> options) : DbContext(options), IDataProtectionKeyContext
{
    public DbSet<DataProtectionKey> DataProtectionKeys => Set<DataProtectionKey>();

    protected override void OnModelCreating(ModelBuilder modelBuilder) =>
        modelBuilder.Entity<DataProtectionKey>().ToTable("DataProtectionKeys", table => table.ExcludeFromMigrations());
}

public static class SharedKeyServices
{
    /// <summary>
    /// One application name for every dashboard (the default is the content root) and the key ring in the results
    /// database: every dashboard on one database reads the others' cookies and forms. At each start, once migrated,
    /// the keys a machine kept before are brought in (<see cref="SharedKeys"/>).
    /// </summary>
    public static IServiceCollection AddSharedKeys(this IServiceCollection services)
    {
        services.AddDbContext<KeyRingContext>((sp, options) => options.UseResultsDatabase(sp));
        services.AddDataProtection().SetApplicationName("BenchDashboard").PersistKeysToDbContext<KeyRingContext>();
        services.AddSingleton<IMigratedDatabaseStep, SharedKeys>();
        return services;
    }
}
