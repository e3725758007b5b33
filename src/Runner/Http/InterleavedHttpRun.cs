using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Benchmarks.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// An HTTP run with variants (issue 15): every worker has a connection of its own for each variant and goes
/// round them, <c>interleaveBlock</c> requests of one variant, then of the next (A B A B … for a block of 1),
/// so whatever drifts during the run (the machine, the service, the network) hits every variant alike and a
/// comparison between them can pair rounds (<see cref="Core.Statistics.BlockBootstrap"/>). Each variant gets
/// the same number of requests; each sample's series is its variant's name; indexes number requests in the
/// order they started, across workers and variants. In the open model request k, of variant
/// (k ÷ block) mod variants, starts when due on a free worker's connection for that variant.
/// </summary>
sealed class InterleavedHttpRun : IDisposable
{
    readonly HttpParameters p;
    readonly IReadOnlyList<(string Name, HttpParameters Parameters)> variants;
    readonly HttpConnection[][] connections; // [worker][variant]
    readonly RunContext context;
    readonly long runStart = Stopwatch.GetTimestamp();
    int nextIndex = -1;

    public InterleavedHttpRun(HttpParameters p, RunContext context, TargetPolicy policy)
    {
        this.p = p;
        this.context = context;
        variants = p.Resolved();
        connections = Enumerable.Range(0, p.Concurrency)
            .Select(worker => variants.Select(v => new HttpConnection(worker, v.Parameters, policy)).ToArray()).ToArray();
    }

    public IEnumerable<HttpConnection> Connections => connections.SelectMany(c => c);

    public async Task ExecuteAsync(CancellationToken ct)
    {
        ThreadPoolGuard.EnsureCovers(p.Concurrency);
        // Warm-up rounds first, on the same connections; measured rounds start when every worker is done with them.
        if (p.WarmupRequests > 0) await RoundsAsync(OperationClaims.UpTo(p.WarmupRequests), warmup: true, ct);
        if (LoadProfile.Of(p) is { } profile) await OnScheduleAsync(profile, ct);
        else await RoundsAsync(OperationClaims.Of(p.Requests, p.DurationSeconds), warmup: false, ct);
    }

    async Task OnScheduleAsync(LoadProfile profile, CancellationToken ct)
    {
        var monitor = new OpenLoadMonitor();
        try
        {
            await OpenLoad.RunAsync(profile, p.Concurrency, async (worker, k, due) =>
                context.Record(await SendAsync(worker, (int)(k / p.InterleaveBlock % variants.Count), warmup: false, ct, due)), monitor, ct);
        }
        finally
        {
            monitor.Report(context.Notes, p.Concurrency);
        }
    }

    /// <summary>
    /// Each worker claims up to a block of request numbers (one number is one request of every variant), then
    /// sends that many of each variant in turn, until no number is left.
    /// </summary>
    Task RoundsAsync(Func<long> claim, bool warmup, CancellationToken ct) =>
        Task.WhenAll(connections.Select((_, worker) => Task.Run(async () =>
        {
            while (!ct.IsCancellationRequested)
            {
                var block = 0;
                while (block < p.InterleaveBlock && claim() >= 0) block++;
                if (block == 0) break;
                for (var v = 0; v < variants.Count; v++)
                    for (var i = 0; i < block; i++)
                        context.Record(await SendAsync(worker, v, warmup, ct));
            }
            ct.ThrowIfCancellationRequested(); // a run stopped between two rounds did not complete
        }, ct)));

    async Task<Sample> SendAsync(int worker, int v, bool warmup, CancellationToken ct, long? due = null)
    {
        var index = Interlocked.Increment(ref nextIndex);
        var sample = await connections[worker][v].SendAsync(index, runStart, warmup, ct, due);
        sample.Series = variants[v].Name;
        return sample;
    }

    public void Dispose()
    {
        foreach (var connection in Connections) connection.Dispose();
    }
}
