using BenchDashboard.Core;
using BenchDashboard.Runner.Scheduling;
using Microsoft.Extensions.Hosting;

namespace BenchDashboard.Runner.Hosting;

/// <summary>
/// The child's side of <see cref="ChildRunner"/>: every second it writes its loop's pulse to standard output
/// as one line (<c>@pulse {json}</c>, for the dashboard's health check), and when its standard input closes
/// (the dashboard stopped, however it stopped) it stops the runner, which ends its runs as interrupted.
/// </summary>
sealed class ChildPulse(RunnerPulse pulse, IHostApplicationLifetime lifetime) : BackgroundService
{
    public const string Prefix = "@pulse ";

    protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.WhenAll(ReportAsync(stoppingToken), WatchParentAsync(stoppingToken));

    async Task ReportAsync(CancellationToken ct)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        do
        {
            var line = Prefix + Json.Serialize(new ChildPulseReport(pulse.LastBeat, pulse.Failure?.Reason, pulse.Failure?.Since));
            await Console.Out.WriteLineAsync(line);
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

/// <summary>What a child reports of its loop: when it last passed, and why it fails while it does.</summary>
public sealed record ChildPulseReport(DateTimeOffset? LastBeat, string? Failure, DateTimeOffset? FailingSince);
