using BenchDashboard.Core.Benchmarks;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class BenchmarkConfiguration : IEntityTypeConfiguration<Benchmark>
{
    public void Configure(EntityTypeBuilder<Benchmark> b)
    {
        b.Property(x => x.Name).HasMaxLength(200);
        b.HasIndex(x => x.Name).IsUnique();
        b.Property(x => x.Kind).HasMaxLength(32);
        b.Property(x => x.CronSchedule).HasMaxLength(100);
        b.Property(x => x.TimeZone).HasMaxLength(64).HasDefaultValue(CronSchedules.DefaultTimeZone);
        b.PrimitiveCollection(x => x.WebhookUrls).HasDefaultValueSql("'[]'");
    }
}
