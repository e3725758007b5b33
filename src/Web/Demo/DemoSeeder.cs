using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Stores;
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
/// is known), an empty database gets each kind's demo benchmarks (<see cref="IBenchmarkKind.Demos"/>) and a first
/// run is queued.
/// </summary>
sealed class DemoSeeder(
    IHostApplicationLifetime lifetime, IServer server, IServiceScopeFactory scopes, BenchmarkKinds kinds,
    IOptions<DemoOptions> options, ILogger<DemoSeeder> logger) : IHostedService
{
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

            // Each kind's demos, the one to run first ahead of the rest.
            var demos = kinds.All.SelectMany(k => k.Demos(address)).OrderBy(d => !d.QueueFirst).ToList();
            foreach (var demo in demos)
            {
                var (saved, refused) = await store.SaveAsync(null, demo.Name, demo.Parameters, null, true, ct);
                if (saved is null)
                {
                    logger.LogInformation("No demo benchmark \"{Name}\": {Reason}", demo.Name, string.Join(" ", refused.SelectMany(e => e.Value)));
                    // E.g. outside Development, where loopback targets are refused (Targets:AllowLoopback): no demos then.
                    if (demo.QueueFirst) return;
                    continue;
                }
                if (demo.QueueFirst) await scope.ServiceProvider.GetRequiredService<RunQueue>().EnqueueAsync(demo.Parameters, saved.Id, ct);
            }
            logger.LogInformation("Seeded demo benchmarks against {Address}/target/ and queued a first run", address);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            logger.LogWarning(ex, "Could not seed the demo benchmarks");
        }
    }
}
