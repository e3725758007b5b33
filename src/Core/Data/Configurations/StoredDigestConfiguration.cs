using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class StoredDigestConfiguration : IEntityTypeConfiguration<StoredDigest>
{
    public void Configure(EntityTypeBuilder<StoredDigest> b)
    {
        b.ToTable("RunDigests");
        b.HasKey(x => new { x.RunId, x.Basis });
        b.Property(x => x.Basis).HasConversion<string>().HasMaxLength(16);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
    }
}

sealed class StoredLatenciesConfiguration : IEntityTypeConfiguration<StoredLatencies>
{
    public void Configure(EntityTypeBuilder<StoredLatencies> b)
    {
        b.ToTable("RunLatencies");
        b.HasKey(x => new { x.RunId, x.Basis, x.Series });
        b.Property(x => x.Basis).HasConversion<string>().HasMaxLength(16);
        b.Property(x => x.Series).HasMaxLength(64);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
    }
}
