using BenchDashboard.Core.Security;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class InstallationKeyConfiguration : IEntityTypeConfiguration<InstallationKey>
{
    public void Configure(EntityTypeBuilder<InstallationKey> b)
    {
        // The name is the key: two dashboards storing the first one at once cannot both succeed.
        b.HasKey(x => x.Name);
        b.Property(x => x.Name).HasMaxLength(100);
        b.Property(x => x.Value).HasMaxLength(200);
    }
}
