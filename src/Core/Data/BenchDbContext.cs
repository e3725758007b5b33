using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Data;

public sealed class BenchDbContext(DbContextOptions<BenchDbContext> options) : DbContext(options)
{
    public DbSet<Benchmark> Benchmarks => Set<Benchmark>();
    public DbSet<Run> Runs => Set<Run>();
    /// <summary>Samples one a row, as stored before blocks: read until an upgrade has moved them into <see cref="SampleBlocks"/>.</summary>
    public DbSet<Sample> Samples => Set<Sample>();
    public DbSet<SampleBlock> SampleBlocks => Set<SampleBlock>();
    public DbSet<StoredDigest> Digests => Set<StoredDigest>();
    public DbSet<StoredLatencies> Latencies => Set<StoredLatencies>();
    public DbSet<Calibration.AaCheck> AaChecks => Set<Calibration.AaCheck>();
    public DbSet<Notifications.WebhookDelivery> WebhookDeliveries => Set<Notifications.WebhookDelivery>();

    /// <summary>The data-protection key ring (cookies, anti-forgery tokens), shared by every dashboard on this database.</summary>
    public DbSet<KeyRingElement> KeyRing => Set<KeyRingElement>();

    public DbSet<Security.InstallationKey> InstallationKeys => Set<Security.InstallationKey>();

    protected override void ConfigureConventions(ModelConfigurationBuilder configurationBuilder) =>
        configurationBuilder.Properties<string>().HaveConversion<Text.StorableText>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.ApplyConfigurationsFromAssembly(typeof(BenchDbContext).Assembly);
        // The one difference between the providers' models: SQLite keeps a list as JSON text, PostgreSQL as an array.
        if (Database.IsNpgsql()) modelBuilder.Entity<Benchmark>().PrimitiveCollection(x => x.WebhookUrls).HasDefaultValueSql("'{}'");
    }
}
