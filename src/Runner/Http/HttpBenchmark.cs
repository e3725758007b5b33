using System.Diagnostics;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// HTTP latency benchmark: <c>Concurrency</c> connections each send requests back to back. Warm-up requests
/// go first on the same connections and finish before measurement starts. Sample indexes number requests in
/// the order they started, across connections, so index 0 is the run's cold first request.
/// </summary>
public sealed class HttpBenchmark : IBenchmarkExecutor
{
    public BenchmarkKind Kind => BenchmarkKind.Http;

    public async Task ExecuteAsync(RunContext context, CancellationToken ct)
    {
        var parameters = Json.Deserialize<HttpParameters>(context.ParametersJson);
        EnsureThreadPoolCovers(parameters.Concurrency);
        var connections = Enumerable.Range(0, parameters.Concurrency).Select(i => new HttpConnection(i, parameters)).ToArray();
        try
        {
            // Separate counters per phase: a connection's last, refused claim must not use up an index.
            var warmupCount = parameters.WarmupRequests;
            int warmupIssued = -1, measuredIssued = -1;
            var runStart = Stopwatch.GetTimestamp();
            if (warmupCount > 0)
                await RunPhaseAsync(connections, context, () => Interlocked.Increment(ref warmupIssued) is var i && i < warmupCount ? i : -1,
                    runStart, warmup: true, ct);

            Func<int> claim;
            if (parameters.Requests is { } requests)
            {
                claim = () => Interlocked.Increment(ref measuredIssued) is var i && i < requests ? warmupCount + i : -1;
            }
            else
            {
                var deadline = Stopwatch.GetTimestamp() + (long)(parameters.DurationSeconds!.Value * (double)Stopwatch.Frequency);
                claim = () => Stopwatch.GetTimestamp() < deadline ? warmupCount + Interlocked.Increment(ref measuredIssued) : -1;
            }
            await RunPhaseAsync(connections, context, claim, runStart, warmup: false, ct);
        }
        finally
        {
            var evidence = new CachingEvidence();
            foreach (var connection in connections)
            {
                evidence.MergeFrom(connection.Evidence);
                connection.Dispose();
            }
            context.CachingEvidence = evidence;
        }
    }

    /// <summary>
    /// The pool starts with one thread per core and adds more only every ~0.5 s when work queues up; if
    /// anything else in the process blocks pool threads, continuations of in-flight requests wait and show
    /// up as latency that the target never caused (seen as 0.6–1.2 s outliers in tests). Keep enough threads
    /// ready for every connection plus the host's own work.
    /// </summary>
    static void EnsureThreadPoolCovers(int connections)
    {
        ThreadPool.GetMinThreads(out var workers, out var io);
        var wanted = Math.Min(connections + Environment.ProcessorCount + 8, 1024);
        if (workers < wanted) ThreadPool.SetMinThreads(wanted, Math.Max(io, wanted));
    }

    /// <summary>Every connection sends until <paramref name="claim"/> hands out no more indexes (−1).</summary>
    static Task RunPhaseAsync(HttpConnection[] connections, RunContext context, Func<int> claim, long runStart, bool warmup, CancellationToken ct) =>
        Task.WhenAll(connections.Select(connection => Task.Run(async () =>
        {
            while (claim() is var index && index >= 0)
                context.Record(await connection.SendAsync(index, runStart, warmup, ct));
        }, ct)));
}
