using BenchDashboard.Core.Data;
using BenchDashboard.Runner;
using BenchDashboard.Runner.Scheduling;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Health;

/// <summary>The results database answers and has every migration applied.</summary>
public sealed class DatabaseHealthCheck(IServiceScopeFactory scopes) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken ct = default)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        List<string> pending;
        try
        {
            // Opening the connection itself (not CanConnect, which hides why): a refused password and a server
            // that does not answer need different fixes. The reason names no connection string.
            await db.Database.OpenConnectionAsync(ct);
            pending = (await db.Database.GetPendingMigrationsAsync(ct)).ToList();
        }
        catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
        {
            StorageFault.ForgetConnections();
            return HealthCheckResult.Unhealthy($"The results database cannot be opened: {fault.Reason}.");
        }
        return pending.Count == 0
            ? HealthCheckResult.Healthy("Reachable, all migrations applied.")
            : HealthCheckResult.Unhealthy($"Migrations not applied: {string.Join(", ", pending)}.");
    }
}

/// <summary>The dashboard's runner (its child process, or in this process) has completed a pass recently (it passes at least every poll interval).</summary>
public sealed class RunnerHealthCheck(IServiceProvider services, IOptions<RunnerOptions> options, TimeProvider time) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken ct = default)
    {
        if (services.GetService<RunnerPulse>() is not { } pulse)
            return Task.FromResult(HealthCheckResult.Healthy("No runner in or under this dashboard (Runner:Process=none): check its own process."));
        if (services.GetService<Runner.Hosting.ChildRunner>()?.NotRunning is { } notRunning)
            return Task.FromResult(HealthCheckResult.Unhealthy($"The runner process is not running: {notRunning}."));
        if (pulse.Failure is { } failure)
            return Task.FromResult(HealthCheckResult.Unhealthy($"The runner's passes have failed for {(time.GetUtcNow() - failure.Since).TotalSeconds:N0} s: {failure.Reason}. Queued runs wait until it passes again."));
        var limit = TimeSpan.FromMilliseconds(Math.Max(3 * options.Value.PollIntervalMs, 10_000));
        return Task.FromResult(pulse.LastBeat is { } beat && time.GetUtcNow() - beat <= limit
            ? HealthCheckResult.Healthy($"Last pass {(time.GetUtcNow() - beat).TotalSeconds:N1} s ago.")
            : HealthCheckResult.Unhealthy(pulse.LastBeat is null ? "The runner has not completed a pass yet." : $"No pass for more than {limit.TotalSeconds:N0} s."));
    }
}
