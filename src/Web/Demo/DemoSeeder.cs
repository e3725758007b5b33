using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Benchmarks.Cache;
using BenchDashboard.Core.Benchmarks.FileSystem;
using BenchDashboard.Core.Benchmarks.Http;
using BenchDashboard.Core.Benchmarks.Tables;
using BenchDashboard.Core.Runs;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Demo;

/// <summary>Section "Demo".</summary>
public sealed class DemoOptions
{
    public const string Section = "Demo";

    /// <summary>On a database with no benchmarks, create demo benchmarks against /target/ and queue one run.</summary>
    public bool Seed { get; set; } = true;
}

/// <summary>
/// Gives a first-time user something to look at: once the server listens (so the built-in targets' address
/// is known), an empty database gets six demo benchmarks and a first run is queued.
/// </summary>
sealed class DemoSeeder(
    IHostApplicationLifetime lifetime, IServer server, IServiceScopeFactory scopes,
    IOptions<DemoOptions> options, ILogger<DemoSeeder> logger) : IHostedService
{
    /// <summary>appsettings.Development.json names the development storage account (Azurite) so.</summary>
    const string DemoTableConnection = "tables";

    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (options.Value.Seed) lifetime.ApplicationStarted.Register(() => _ = SeedAsync(lifetime.ApplicationStopping));
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    async Task SeedAsync(CancellationToken ct)
    {
        try
        {
            var address = server.Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault(a => a.StartsWith("http://"));
            if (address is null) return;
            address = address.Replace("://+", "://127.0.0.1").Replace("://*", "://127.0.0.1").Replace("://0.0.0.0", "://127.0.0.1").Replace("://[::]", "://127.0.0.1");

            await using var scope = scopes.CreateAsyncScope();
            var store = scope.ServiceProvider.GetRequiredService<BenchmarkStore>();
            if ((await store.ListAsync(ct)).Count > 0) return;

            var latency = new HttpParameters
            {
                Url = $"{address}/target/delay?ms=5&size=4096", Requests = 300, Concurrency = 4, WarmupRequests = 20,
            };
            var cache = new HttpParameters
            {
                Url = $"{address}/target/cacheable?coldMs=400", Requests = 100, Concurrency = 1,
            };
            var (demo, refused) = await store.SaveAsync(null, "Demo: 5 ms endpoint, 4 connections", latency, null, true, ct);
            if (demo is null)
            {
                // E.g. outside Development, where loopback targets are refused (Targets:AllowLoopback).
                logger.LogInformation("No demo benchmarks: {Reason}", string.Join(" ", refused.SelectMany(e => e.Value)));
                return;
            }
            await store.SaveAsync(null, "Demo: cold first request, then served from cache", cache, null, true, ct);
            await store.SaveAsync(null, "Demo: cache writes and reads, in-process", new CacheParameters { Requests = 1000, KeyCount = 100 }, null, true, ct);
            await store.SaveAsync(null, "Demo: page that reads 64 small files",
                new HttpParameters { Url = $"{address}/target/files?count=64", Requests = 50, Concurrency = 1, WarmupRequests = 10 }, null, true, ct);
            // File storage on the two locations every dashboard has: local temp and its content folder (on App Service, the shared storage).
            await store.SaveAsync(null, "Demo: file system on each location",
                new FileSystemParameters { Directories = [FileSystemOptions.TempRoot, "content"], FileCount = 500, LargeFileMiB = 8 }, null, true, ct);
            // Table Storage inserts against the development storage account: Azurite, which the runner starts when the first run needs it.
            var (table, noTable) = await store.SaveAsync(null, "Demo: Table Storage single vs. batch inserts, Expect and Nagle on and off",
                new TableParameters { Connection = DemoTableConnection, Requests = 200, WarmupRequests = 10 }, null, true, ct);
            if (table is null) logger.LogInformation("No Table demo benchmark: {Reason}", string.Join(" ", noTable.SelectMany(e => e.Value)));
            await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(latency, demo.Id, ct);
            logger.LogInformation("Seeded demo benchmarks against {Address}/target/ and queued a first run", address);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            logger.LogWarning(ex, "Could not seed the demo benchmarks");
        }
    }
}
