using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class SampleConfiguration : IEntityTypeConfiguration<Sample>
{
    public void Configure(EntityTypeBuilder<Sample> b)
    {
        // A natural key: no generated id to read back, so sample batches insert without round trips.
        b.HasKey(x => new { x.RunId, x.Index });
        b.Property(x => x.Series).HasMaxLength(64);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
    }
}
