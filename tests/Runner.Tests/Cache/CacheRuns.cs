using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Tests.Scheduling;

namespace BenchDashboard.Runner.Tests.Cache;

/// <summary>
/// Runs a cache benchmark through the whole runner (queue, executor, sample writer, SQLite) and reads back
/// what was stored. A host runs once: use a new one for each run.
/// </summary>
static class CacheRuns
{
    public const string ConnectionName = "test";

    public static Task<RunnerHost> HostAsync(string? connectionString) =>
        RunnerHost.CreateAsync(new() { [$"ConnectionStrings:{ConnectionName}"] = connectionString });

    public static async Task<(Run Run, List<Sample> Samples)> ExecuteAsync(
        RunnerHost host, CacheParameters parameters, Func<long, Task>? whileRunning = null)
    {
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(parameters, null, default));
        await host.Host.StartAsync();
        try
        {
            if (whileRunning is not null) await whileRunning(runId);
            await host.UntilFinalAsync(runId);
        }
        finally
        {
            await host.Host.StopAsync();
        }
        return (await host.RunAsync(runId), await host.SamplesAsync(runId));
    }

    /// <summary>Waits until the run has reported at least this many finished operations (heartbeat progress).</summary>
    public static async Task UntilCompletedAsync(RunnerHost host, long runId, int operations)
    {
        while ((await host.RunAsync(runId)).CompletedRequests < operations) await Task.Delay(20);
    }

    public static CacheParameters Redis(string keyPrefix) => new()
    {
        Backend = CacheBackend.Redis,
        Connection = ConnectionName,
        KeyPrefix = keyPrefix,
        Requests = 100,
    };
}
