using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Maintenance;

/// <summary>Applies <see cref="RunRetention"/> a minute after start and then every hour.</summary>
public sealed class RetentionService(IServiceScopeFactory scopes, ILogger<RetentionService> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await Task.Delay(TimeSpan.FromMinutes(1), stoppingToken);
            using var timer = new PeriodicTimer(TimeSpan.FromHours(1));
            do
            {
                try
                {
                    await using var scope = scopes.CreateAsyncScope();
                    var deleted = await scope.ServiceProvider.GetRequiredService<RunRetention>().DeleteExpiredAsync(1000, stoppingToken);
                    if (deleted > 0) logger.LogInformation("Deleted {Count} run(s) older than Runs:KeepDays", deleted);
                    var dropped = await scope.ServiceProvider.GetRequiredService<RunRetention>().DropExpiredSamplesAsync(1000, stoppingToken);
                    if (dropped > 0) logger.LogInformation("Dropped the samples of {Count} run(s) older than Runs:KeepSamplesDays, their digests kept", dropped);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    logger.LogWarning(ex, "Deleting old runs failed; trying again in an hour");
                }
            }
            while (await timer.WaitForNextTickAsync(stoppingToken));
        }
        catch (OperationCanceledException)
        {
        }
    }
}
