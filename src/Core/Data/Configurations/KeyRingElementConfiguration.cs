using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

/// <summary>The table and columns ASP.NET Core's data-protection store for EF Core reads and writes.</summary>
sealed class KeyRingElementConfiguration : IEntityTypeConfiguration<KeyRingElement>
{
    public void Configure(EntityTypeBuilder<KeyRingElement> entity) => entity.ToTable("DataProtectionKeys");
}
