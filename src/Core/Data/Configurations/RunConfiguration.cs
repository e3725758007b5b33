using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class RunConfiguration : IEntityTypeConfiguration<Run>
{
    public void Configure(EntityTypeBuilder<Run> b)
    {
        b.Property(x => x.Kind).HasMaxLength(32);
        // Stored by name, as every database since the first holds it (and readable with any SQLite tool).
        b.Property(x => x.Status).HasConversion<string>().HasMaxLength(32);
        b.Property(x => x.RunnerName).HasMaxLength(200);
        b.Property(x => x.BenchmarkName).HasMaxLength(200);
        b.HasIndex(x => x.Status);
        b.HasIndex(x => new { x.BenchmarkId, x.Id });
        // Only the few runs not yet judged are in it: the dashboard looks for them every second.
        b.HasIndex(x => x.WebhooksCheckedUtcMs).HasFilter("\"WebhooksCheckedUtcMs\" IS NULL");
        b.HasOne(x => x.Benchmark).WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.SetNull);
    }
}
