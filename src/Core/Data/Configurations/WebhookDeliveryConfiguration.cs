using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace BenchDashboard.Core.Data.Configurations;

sealed class WebhookDeliveryConfiguration : IEntityTypeConfiguration<WebhookDelivery>
{
    public void Configure(EntityTypeBuilder<WebhookDelivery> b)
    {
        b.Property(x => x.Url).HasMaxLength(WebhookUrls.MaxLength);
        b.Property(x => x.Event).HasMaxLength(32);
        b.Property(x => x.Status).HasConversion<string>().HasMaxLength(16);
        b.HasIndex(x => new { x.Status, x.NextAttemptUtcMs });
        b.HasIndex(x => x.RunId);
        // Deleting a run (by hand or by retention) deletes its deliveries.
        b.HasOne<Run>().WithMany().HasForeignKey(x => x.RunId).OnDelete(DeleteBehavior.Cascade);
    }
}
