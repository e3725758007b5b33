using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;

namespace BenchDashboard.Web.Maintenance;

/// <summary>
/// Judges, soon after start and then every few minutes, the completed runs that the current change rule has not
/// judged: a history from before the rule (an upgraded database), or a run whose runner stopped before judging it.
/// The pages judge what they show anyway; this makes the runs list's flags right without anyone opening a trend.
/// Old runs are judged but announce nothing: their webhooks were settled when they ended.
/// </summary>
public sealed class HistoryJudgingService(IServiceScopeFactory scopes, ILogger<HistoryJudgingService> logger) : BackgroundService
{
    const int BenchmarksPerPass = 5;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(5), stoppingToken);
            using var timer = new PeriodicTimer(TimeSpan.FromMinutes(5));
            do
            {
                try
                {
                    int judged;
                    do
                    {
                        await using var scope = scopes.CreateAsyncScope();
                        judged = await scope.ServiceProvider.GetRequiredService<RunHistory>().JudgeUnjudgedAsync(BenchmarksPerPass, stoppingToken);
                        if (judged > 0) logger.LogInformation("Judged the history of {Count} benchmark(s) by the change rule", judged);
                    }
                    while (judged == BenchmarksPerPass);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    logger.LogWarning(ex, "Judging runs' histories failed; trying again in five minutes");
                }
            }
            while (await timer.WaitForNextTickAsync(stoppingToken));
        }
        catch (OperationCanceledException)
        {
        }
    }
}
