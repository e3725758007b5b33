using BenchDashboard.Processing.Claiming;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Runner.Hosting;

/// <summary>
/// The child's side of the dashboard's <c>ChildRunner</c>: every second it writes its loop's pulse to standard
/// output as one line (<see cref="PulseLine"/>, for the dashboard's health check), and when its standard input closes
/// (the dashboard stopped, however it stopped) it stops the runner, which ends its runs as interrupted.
/// </summary>
sealed class ChildPulse(RunnerPulse pulse, IHostApplicationLifetime lifetime) : BackgroundService
{
    protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.WhenAll(ReportAsync(stoppingToken), WatchParentAsync(stoppingToken));

    async Task ReportAsync(CancellationToken ct)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        do
        {
            await Console.Out.WriteLineAsync(PulseLine.Write(pulse));
            await Console.Out.FlushAsync(ct);
        }
        while (await timer.WaitForNextTickAsync(ct).ConfigureAwait(false));
    }

    async Task WatchParentAsync(CancellationToken ct)
    {
        try
        {
            await Console.In.ReadToEndAsync(ct);
        }
        catch (OperationCanceledException)
        {
            return;
        }
        lifetime.StopApplication(); // no parent: a runner on its own must not go on measuring unwatched
    }
}
