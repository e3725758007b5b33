using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Data;

/// <summary>The one place that applies EF Core migrations; both hosts (Web, standalone Runner) call it at start-up.</summary>
public static class DatabaseMigrator
{
    public static async Task MigrateDatabaseAsync(this IServiceProvider services, CancellationToken ct = default)
    {
        await using var scope = services.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await db.Database.MigrateAsync(ct);
        // WAL lets the dashboard read while the runner writes samples; the setting persists in the file.
        await db.Database.ExecuteSqlRawAsync("PRAGMA journal_mode=WAL;", ct);
        scope.ServiceProvider.GetRequiredService<StorageReserve>().Ensure();
    }
}
