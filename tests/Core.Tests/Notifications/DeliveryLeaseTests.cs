using BenchDashboard.Core.Data;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
using BenchDashboard.Core.Tests.Data;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Tests.Notifications;

/// <summary>Deliveries are taken on a lease: a sender whose lease ran out does not overwrite the next sender's attempt.</summary>
public class DeliveryLeaseTests
{
    [Fact]
    public async Task ASenderWhoseLeaseWasTakenOverRecordsNothing()
    {
        using var dir = new TempDirectory();
        await using var services = DatabaseServices.For(dir.File("leases.db"));
        long deliveryId;
        await using (var setup = services.CreateAsyncScope())
        {
            var db = setup.ServiceProvider.GetRequiredService<BenchDbContext>();
            await db.Database.MigrateAsync();
            var run = new Run { Kind = "http", ParametersJson = "{}", Status = RunStatus.Failed };
            db.Runs.Add(run);
            await db.SaveChangesAsync();
            var delivery = new WebhookDelivery { RunId = run.Id, Url = "http://127.0.0.1:9/hook", Event = "failed", PayloadJson = "{}", Status = DeliveryStatus.Pending };
            db.WebhookDeliveries.Add(delivery);
            await db.SaveChangesAsync();
            deliveryId = delivery.Id;
        }

        await using var slowScope = services.CreateAsyncScope();
        await using var nextScope = services.CreateAsyncScope();
        var slow = slowScope.ServiceProvider.GetRequiredService<RunNotifications>();
        var next = nextScope.ServiceProvider.GetRequiredService<RunNotifications>();

        // The slow sender's lease is over at once; the next sender takes the delivery over and records its answer.
        var slowClaim = Assert.Single(await slow.ClaimDueAsync(10, TimeSpan.Zero, CancellationToken.None));
        await Task.Delay(20);
        var nextClaim = Assert.Single(await next.ClaimDueAsync(10, TimeSpan.FromMinutes(5), CancellationToken.None));
        await next.RecordAttemptAsync(nextClaim, delivered: true, statusCode: 200, error: null, CancellationToken.None);
        await slow.RecordAttemptAsync(slowClaim, delivered: false, statusCode: 500, error: "late", CancellationToken.None);

        await using var check = services.CreateAsyncScope();
        var stored = await check.ServiceProvider.GetRequiredService<BenchDbContext>().WebhookDeliveries.AsNoTracking().SingleAsync(d => d.Id == deliveryId);
        Assert.Equal(DeliveryStatus.Delivered, stored.Status);
        Assert.Equal(1, stored.Attempts);
        Assert.Equal(200, stored.LastStatusCode);
        Assert.Null(stored.LastError);
    }
}
