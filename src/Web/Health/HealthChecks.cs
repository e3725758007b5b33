using BenchDashboard.Core.Data;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Health;

/// <summary>The results database answers, has every migration applied, and (SQLite) has room to store what runs measure.</summary>
public sealed class DatabaseHealthCheck(IServiceScopeFactory scopes, IOptions<DatabaseOptions> options, IHostEnvironment environment) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken ct = default)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        List<string> pending;
        long size = 0;
        try
        {
            // Opening the connection itself (not CanConnect, which hides why): a refused password and a server
            // that does not answer need different fixes. The reason names no connection string.
            await db.Database.OpenConnectionAsync(ct);
            pending = (await db.Database.GetPendingMigrationsAsync(ct)).ToList();
            if (!options.Value.IsPostgreSql) size = await SizeAsync(db, ct);
        }
        catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
        {
            StorageFault.ForgetConnections();
            return HealthCheckResult.Unhealthy($"The results database cannot be opened: {fault.Reason}.");
        }
        if (pending.Count > 0) return HealthCheckResult.Unhealthy($"Migrations not applied: {string.Join(", ", pending)}.");
        return Full(size) is { } full ? HealthCheckResult.Unhealthy(full) : HealthCheckResult.Healthy("Reachable, all migrations applied.");
    }

    /// <summary>Less room than this and a run cannot store much more than a batch of samples (about 250 KiB for 5,000).</summary>
    const long Room = 1L << 20;

    /// <summary>
    /// Why a SQLite database has no room left, or null: less than 1 MiB to Database:MaxSizeMiB, or on its disk (or
    /// less than the reserve, once a full disk took the reserve). Reads still work then; runs cannot store.
    /// </summary>
    string? Full(long size)
    {
        var database = options.Value;
        if (database.IsPostgreSql) return null; // the server's disk is the server's to report (53100 on a write)
        var path = database.FullPath(environment);
        const string Then = "runs cannot store their samples. Delete runs (their Delete works on a full disk) or free space.";
        if (database.MaxSizeMiB is { } max && max * 1048576L - size < Room)
            return $"The results database reached Database:MaxSizeMiB ({max} MiB, {size / 1024:N0} KiB used): {Then}";
        try
        {
            var free = new DriveInfo(Path.GetDirectoryName(path)!).AvailableFreeSpace;
            var reserveGone = database.ReserveMiB > 0 && !File.Exists(path + ".reserve");
            var needed = Math.Max(Room, reserveGone ? database.ReserveMiB * 1048576L : 0);
            return free < needed ? $"The disk of the results database is full ({free / 1024:N0} KiB free): {Then}" : null;
        }
        catch (Exception ex) when (ex is IOException or ArgumentException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The database's size as SQLite counts it against max_page_count: its pages, those still in the WAL included.</summary>
    static async Task<long> SizeAsync(BenchDbContext db, CancellationToken ct)
    {
        await using var command = db.Database.GetDbConnection().CreateCommand();
        command.CommandText = "PRAGMA page_count";
        var pages = Convert.ToInt64(await command.ExecuteScalarAsync(ct));
        command.CommandText = "PRAGMA page_size";
        return pages * Convert.ToInt64(await command.ExecuteScalarAsync(ct));
    }
}

/// <summary>The dashboard's runner (its child process, or in this process) has completed a pass recently (it passes at least every poll interval).</summary>
public sealed class RunnerHealthCheck(IServiceProvider services, IOptions<RunnerOptions> options, TimeProvider time) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken ct = default)
    {
        if (services.GetService<RunnerPulse>() is not { } pulse)
            return Task.FromResult(HealthCheckResult.Healthy("No runner in or under this dashboard (Runner:Process=none): check its own process."));
        if (services.GetService<Runners.ChildRunner>()?.NotRunning is { } notRunning)
            return Task.FromResult(HealthCheckResult.Unhealthy($"The runner process is not running: {notRunning}."));
        if (pulse.Failure is { } failure)
            return Task.FromResult(HealthCheckResult.Unhealthy($"The runner's passes have failed for {(time.GetUtcNow() - failure.Since).TotalSeconds:N0} s: {failure.Reason}. Queued runs wait until it passes again."));
        var limit = TimeSpan.FromMilliseconds(Math.Max(3 * options.Value.PollIntervalMs, 10_000));
        return Task.FromResult(pulse.LastBeat is { } beat && time.GetUtcNow() - beat <= limit
            ? HealthCheckResult.Healthy($"Last pass {(time.GetUtcNow() - beat).TotalSeconds:N1} s ago.")
            : HealthCheckResult.Unhealthy(pulse.LastBeat is null ? "The runner has not completed a pass yet." : $"No pass for more than {limit.TotalSeconds:N0} s."));
    }
}
