using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Web.Maintenance;

/// <summary>
/// Converts the sample rows of a database from before blocks (<see cref="SampleRowsUpgrade"/>) in the background once
/// the schema is this build's, while the dashboard serves: every run reads from whichever store holds it meanwhile.
/// Runs that had not ended are tried again every ten minutes; a database with no rows costs one query a start.
/// </summary>
public sealed class SampleUpgradeService(SampleRowsUpgrade upgrade, IServiceScopeFactory scopes, Microsoft.Extensions.Options.IOptions<DatabaseOptions> options,
    ILogger<SampleUpgradeService> logger) : BackgroundService
{
    static readonly TimeSpan Again = TimeSpan.FromMinutes(10), SchemaPoll = TimeSpan.FromSeconds(5);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (!options.Value.ConvertSampleRows) return;
        try
        {
            while (true)
            {
                try
                {
                    if (await SchemaReadyAsync(stoppingToken))
                    {
                        var outcome = await upgrade.ConvertAsync(stoppingToken);
                        if (outcome.Runs > 0)
                            logger.LogInformation("Converted the samples of {Runs} run(s), {Samples} samples, from rows to blocks", outcome.Runs, outcome.Samples);
                        if (outcome.Left == 0) return;
                        await Task.Delay(Again, stoppingToken);
                        continue;
                    }
                }
                catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
                {
                    StorageFault.ForgetConnections();
                    logger.LogWarning("Converting sample rows to blocks stopped: {Reason}; trying again in ten minutes", fault.Reason);
                    await Task.Delay(Again, stoppingToken);
                    continue;
                }
                await Task.Delay(SchemaPoll, stoppingToken);
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    async Task<bool> SchemaReadyAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        return !(await scope.ServiceProvider.GetRequiredService<BenchDbContext>().Database.GetPendingMigrationsAsync(ct)).Any();
    }
}
