using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Calibration;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class AaCheckConfiguration : IEntityTypeConfiguration<AaCheck>
{
    public void Configure(EntityTypeBuilder<AaCheck> b)
    {
        b.Property(x => x.BenchmarkName).HasMaxLength(200);
        b.HasIndex(x => new { x.BenchmarkId, x.Id });
        // A check is about its benchmark's setup: it goes with it (its runs stay, as the benchmark's own do).
        b.HasOne<Benchmark>().WithMany().HasForeignKey(x => x.BenchmarkId).OnDelete(DeleteBehavior.Cascade);
    }
}
