using System.Diagnostics;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Benchmarks.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// HTTP latency benchmark. Closed model: <c>Concurrency</c> connections each send requests back to back. Open
/// model: requests start on the schedule of <c>rate</c> and <c>stages</c> (<see cref="OpenLoad"/>), each on a
/// free one of the connections. Warm-up requests go first, back to back on the same connections, and finish
/// before measurement starts. Sample indexes number requests in the order they started, across connections,
/// so index 0 is the run's cold first request. With variants the run interleaves them (<see cref="InterleavedHttpRun"/>).
/// </summary>
public sealed class HttpBenchmark(TargetPolicy policy) : IBenchmarkExecutor
{
    public string Kind => HttpKind.KindName;

    /// <summary>The run's URL and each variant's, against this process's target policy.</summary>
    public async Task<string?> RefusalAsync(string parametersJson, CancellationToken ct)
    {
        var parameters = Json.Deserialize<HttpParameters>(parametersJson);
        foreach (var url in parameters.Resolved().Select(v => v.Parameters.Url).Prepend(parameters.Url).Distinct())
            if (!Uri.TryCreate(url, UriKind.Absolute, out var uri)) return $"'{url}' is not an absolute URL.";
            else if (await policy.CheckAsync(uri, ct) is { } refused) return $"{url}: {refused}";
        return null;
    }

    public async Task ExecuteAsync(RunContext context, CancellationToken ct)
    {
        var parameters = Json.Deserialize<HttpParameters>(context.ParametersJson);
        if (parameters.Variants is { Count: > 0 })
        {
            await InterleavedAsync(parameters, context, ct);
            return;
        }
        ThreadPoolGuard.EnsureCovers(parameters.Concurrency);
        var connections = Enumerable.Range(0, parameters.Concurrency).Select(i => new HttpConnection(i, parameters, policy)).ToArray();
        try
        {
            // Separate counters per phase: warm-up requests take indexes 0..w−1, measured ones follow.
            var warmupCount = parameters.WarmupRequests;
            var runStart = Stopwatch.GetTimestamp();
            if (warmupCount > 0)
                await RunPhaseAsync(connections, context, OperationClaims.UpTo(warmupCount), runStart, warmup: true, ct);

            if (LoadProfile.Of(parameters) is { } profile)
            {
                var monitor = new OpenLoadMonitor();
                try
                {
                    await OpenLoad.RunAsync(profile, connections.Length, async (slot, k, due) =>
                        context.Record(await connections[slot].SendAsync((int)(warmupCount + k), runStart, warmup: false, ct, due)), monitor, ct);
                }
                finally
                {
                    monitor.Report(context.Notes, connections.Length);
                }
                return;
            }
            var measured = OperationClaims.Of(parameters.Requests, parameters.DurationSeconds);
            Func<long> claim = () => measured() is var i && i >= 0 ? warmupCount + i : -1;
            await RunPhaseAsync(connections, context, claim, runStart, warmup: false, ct);
        }
        finally
        {
            context.CachingEvidence = EvidenceOf(connections);
            foreach (var connection in connections) connection.Dispose();
        }
    }

    async Task InterleavedAsync(HttpParameters parameters, RunContext context, CancellationToken ct)
    {
        using var run = new InterleavedHttpRun(parameters, context, policy);
        try
        {
            await run.ExecuteAsync(ct);
        }
        finally
        {
            context.CachingEvidence = EvidenceOf(run.Connections);
        }
    }

    static CachingEvidence EvidenceOf(IEnumerable<HttpConnection> connections)
    {
        var evidence = new CachingEvidence();
        foreach (var connection in connections) evidence.MergeFrom(connection.Evidence);
        return evidence;
    }

    /// <summary>Every connection sends until <paramref name="claim"/> hands out no more indexes (−1).</summary>
    static Task RunPhaseAsync(HttpConnection[] connections, RunContext context, Func<long> claim, long runStart, bool warmup, CancellationToken ct) =>
        Task.WhenAll(connections.Select(connection => Task.Run(async () =>
        {
            while (!ct.IsCancellationRequested && claim() is var index && index >= 0)
                context.Record(await connection.SendAsync((int)index, runStart, warmup, ct));
            ct.ThrowIfCancellationRequested(); // a run stopped between two requests did not complete
        }, ct)));
}
