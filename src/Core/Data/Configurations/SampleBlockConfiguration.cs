using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class SampleBlockConfiguration : IEntityTypeConfiguration<SampleBlock>
{
    public void Configure(EntityTypeBuilder<SampleBlock> b)
    {
        b.ToTable("SampleBlocks");
        b.HasKey(x => new { x.RunId, x.FirstIndex });
        b.Property(x => x.Series).HasMaxLength(64);
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
    }
}
