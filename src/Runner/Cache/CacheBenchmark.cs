using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Cache;

/// <summary>
/// Cache operations timed: the chosen phases (write, read-same, read-distinct, read-miss) one after another,
/// each by <c>Concurrency</c> workers issuing operations back to back (closed model), or each following the
/// schedule of <c>rate</c> and <c>stages</c> from its own start, with at most <c>Concurrency</c> operations in
/// flight (open model, <see cref="OpenLoad"/>). Every operation is a sample whose series is its phase; sample
/// indexes run on across phases. With variants the operations of each phase go round them,
/// <c>interleaveBlock</c> at a time, each variant on its own client and keys (<see cref="CacheLane"/>), and a
/// sample's series is "{variant}/{phase}". A read that finds nothing is a miss, not an error. The run's keys
/// are deleted at the end, after a failure or cancel too, and expire after a day in case the runner dies first.
/// </summary>
public sealed class CacheBenchmark(NamedConnections connections) : BenchmarkExecutor<CacheParameters>
{
    const int DeleteBatch = 1000;

    /// <summary>Every key expires after a day: a safety net for a runner that dies before its cleanup.</summary>
    internal static readonly TimeSpan KeyTimeToLive = TimeSpan.FromDays(1);

    /// <summary>Every phase on the in-process backend, the operations shared among them.</summary>
    public override async Task<int?> WarmUpAsync(int operations, CancellationToken ct)
    {
        var memory = new CacheParameters { Backend = CacheBackend.Memory, Concurrency = 1 };
        return await SelfWarmup.CountAnsweredAsync(this, memory with { Requests = Math.Max(1, operations / memory.Phases.Count) }, ct);
    }

    public override Task ExecuteAsync(RunContext context, CacheParameters p, CancellationToken ct)
    {
        var lanes = new List<CacheLane>();
        return new LoadDriver(context).RunAsync(new LoadPlan
        {
            SetUpAsync = async ct =>
            {
                IReadOnlyList<(string? Name, CacheParameters Parameters)> variants =
                    p.Variants is { Count: > 0 } ? p.Resolved().Select(v => ((string?)v.Name, v.Parameters)).ToList() : [(null, p)];
                foreach (var (name, parameters) in variants)
                {
                    var lane = new CacheLane(name, parameters, new CacheKeys(p.KeyPrefix, context.Run.Id), await OpenAsync(parameters, ct));
                    lanes.Add(lane);
                    context.Notes.Add($"{lane.NotePrefix}Endpoint: {lane.Client.Endpoint}. Keys of this run start with '{lane.Keys.Prefix}'.");
                    if (lane.Client is RedisCacheClient redis) context.RecordClient(name is null ? "redisProtocol" : $"redisProtocol.{name}", redis.Protocol);
                }
            },
            Phases = new CacheRun(p, lanes, context).Phases(),
            CleanUpAsync = async ct =>
            {
                foreach (var lane in lanes)
                {
                    await CleanUpAsync(lane, context.Notes, ct);
                    await lane.DisposeAsync();
                }
            },
        }, ct);
    }

    async Task<ICacheClient> OpenAsync(CacheParameters p, CancellationToken ct)
    {
        if (p.Backend == CacheBackend.Memory) return new MemoryCacheClient();
        var connectionString = connections.Find(p.Connection!)
            ?? throw new CacheUnavailableException($"No connection string named '{p.Connection}' is configured.");
        return await RedisCacheClient.ConnectAsync(p.Connection!, connectionString, p.Timeout, ct);
    }

    /// <summary>Deletes data keys 0..touched−1 (miss keys are never written). Bounded in time; never throws.</summary>
    static async Task CleanUpAsync(CacheLane lane, RunNotes notes, CancellationToken ct)
    {
        var (p, keys, touched) = (lane.Parameters, lane.Keys, lane.KeysTouched);
        if (!p.Cleanup)
        {
            notes.Add($"{lane.NotePrefix}Cleanup was off: up to {touched:N0} keys remain under '{keys.Prefix}'.");
            return;
        }
        long deleted = 0;
        try
        {
            for (var from = 0; from < touched; from += DeleteBatch)
            {
                var batch = Enumerable.Range(from, Math.Min(DeleteBatch, touched - from)).Select(keys.Data).ToArray();
                deleted += await lane.Client.DeleteAsync(batch).WaitAsync(p.Timeout, ct);
            }
            notes.Add($"{lane.NotePrefix}Cleanup: deleted {deleted:N0} keys under '{keys.Prefix}'.");
        }
        catch (Exception ex)
        {
            notes.Add($"{lane.NotePrefix}Cleanup failed after deleting {deleted:N0} keys: {lane.Clean(ex.Message)} Keys may remain under '{keys.Prefix}'.");
        }
    }

    /// <summary>The state of one run while its phases execute.</summary>
    sealed class CacheRun(CacheParameters p, IReadOnlyList<CacheLane> lanes, RunContext context)
    {
        /// <summary>The phases in their order, on the lanes the plan's set-up opened; a read of written keys before any write writes them first.</summary>
        public IEnumerable<Phase> Phases()
        {
            var written = false;
            foreach (var phase in p.Phases)
            {
                var seed = phase is CachePhase.ReadSame or CachePhase.ReadDistinct && !written;
                if (seed || phase == CachePhase.Write) written = true;
                yield return new Phase(phase.Name(), p, new PhaseOperations(phase, lanes, p.Concurrency))
                {
                    // The block is how variants take turns.
                    Variants = lanes.Count,
                    Block = p.InterleaveBlock,
                    SetUpAsync = seed ? async ct => { foreach (var lane in lanes) await SeedAsync(lane, phase, ct); } : null,
                };
            }
        }

        /// <summary>
        /// Reads of written keys need keys: write the ones the run's reads can ask for first, unmeasured, and
        /// say so. A server that cannot take them ends the run rather than turning every read into a miss.
        /// </summary>
        async Task SeedAsync(CacheLane lane, CachePhase before, CancellationToken ct)
        {
            var lp = lane.Parameters;
            var count = !p.Phases.Contains(CachePhase.ReadDistinct) ? 1 : p.Requests is { } r ? (int)Math.Min(r, lp.KeyCount) : lp.KeyCount;
            lane.Touch(count);
            var refused = 0;
            for (var i = 0; i < count; i++)
            {
                try
                {
                    await lane.Client.SetAsync(lane.Keys.Data(i), lane.Value, KeyTimeToLive).WaitAsync(lp.Timeout, ct);
                }
                catch (Exception ex) when (ex is not OperationCanceledException || !ct.IsCancellationRequested)
                {
                    var kind = CacheErrorClassifier.Classify(ex);
                    if (kind != ErrorKind.ServerError)
                        throw new CacheUnavailableException($"{lane.NotePrefix}Could not write the keys that {before.Name()} reads ({kind}): {lane.Clean(ex.Message)}");
                    refused++;
                }
            }
            context.Notes.Add($"{lane.NotePrefix}Before {before.Name()}: wrote {count - refused:N0} of {count:N0} keys (not measured) so reads have something to find.");
        }
    }

    /// <summary>
    /// A phase's operation on a variant's lane: the variant's operation number picks the key, so every variant
    /// cycles through all its keys. Each worker keeps a failure streak per variant.
    /// </summary>
    sealed class PhaseOperations(CachePhase phase, IReadOnlyList<CacheLane> lanes, int workers) : ILoadOperation
    {
        readonly FailureStreak[][] streaks = Enumerable.Range(0, workers).Select(_ => lanes.Select(_ => new FailureStreak()).ToArray()).ToArray();

        public TimeSpan? TimeoutOf(int variant) => lanes[variant].Parameters.Timeout;

        public async ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
        {
            var (lane, i) = (lanes[operation.Variant], operation.Number);
            var (lp, keys, client) = (lane.Parameters, lane.Keys, lane.Client);
            var key = phase switch
            {
                CachePhase.Write => keys.Data((int)(i % lp.KeyCount)),
                CachePhase.ReadSame => keys.Data(0),
                CachePhase.ReadDistinct => keys.Data((int)(i % lp.KeyCount)),
                _ => keys.Miss(i),
            };
            if (phase == CachePhase.Write) lane.Touch((int)Math.Min(i + 1, lp.KeyCount));

            operation.Clock.Start(); // the key is chosen: what follows is the operation
            // Stopped as the answer is in, not when the outcome has made its way back to the driver: an in-process
            // operation takes about 100 ns, and returning through the async method would add a third to it.
            if (phase == CachePhase.Write)
            {
                await client.SetAsync(key, lane.Value, KeyTimeToLive).WaitAsync(ct);
                operation.Clock.Stop();
                return new Outcome { Series = lane.SeriesOf(phase), Bytes = lane.Value.Length };
            }
            var found = await client.GetAsync(key).WaitAsync(ct);
            operation.Clock.Stop();
            return new Outcome { Series = lane.SeriesOf(phase), Bytes = found ?? 0, Hit = found is not null };
        }

        /// <summary>A failed operation, timed out or not, is a sample with its error, its message kept as a note.</summary>
        public Outcome? Failed(Operation operation, Exception exception, bool timedOut)
        {
            var lane = lanes[operation.Variant];
            var error = timedOut ? ErrorKind.Timeout : CacheErrorClassifier.Classify(exception);
            var message = timedOut ? $"No answer within {lane.Parameters.Timeout.TotalMilliseconds:N0} ms." : lane.Clean(exception.Message);
            return new Outcome { Series = lane.SeriesOf(phase), Error = error, Note = lane.NotePrefix + message };
        }

        /// <summary>
        /// A worker whose operations have all failed (connection lost, refused or timed out) for 3 × the timeout
        /// gives up, and with it the run: the server is gone, and going on would only count failures.
        /// </summary>
        public async ValueTask AfterAsync(Operation operation, Sample sample, CancellationToken ct) =>
            await streaks[operation.Worker][operation.Variant].AfterAsync(sample.Error, lanes[operation.Variant].Parameters.Timeout * 3, ct);
    }

    /// <summary>
    /// One worker's run of consecutive operations that got no answer. While the connection is down, every
    /// operation fails in microseconds (FailFast); backing off (10 ms, doubling to 250 ms) keeps that from
    /// flooding the run with failures while the library reconnects. If the streak outlasts the limit, the run fails.
    /// </summary>
    sealed class FailureStreak
    {
        static readonly TimeSpan MaxBackoff = TimeSpan.FromMilliseconds(250);
        long firstFailure;
        TimeSpan backoff;

        public async Task AfterAsync(ErrorKind error, TimeSpan giveUpAfter, CancellationToken ct)
        {
            if (!CacheErrorClassifier.IsNoAnswer(error))
            {
                firstFailure = 0;
                return;
            }
            if (firstFailure == 0)
            {
                firstFailure = Stopwatch.GetTimestamp();
                backoff = TimeSpan.FromMilliseconds(10);
            }
            var failingFor = Stopwatch.GetElapsedTime(firstFailure);
            if (failingFor > giveUpAfter)
                throw new CacheUnavailableException(
                    $"The cache server gave no answer for {failingFor.TotalSeconds:N1} s ({error}: lost, refused or timed out), more than 3 × timeoutMs; gave up. Samples taken before are kept.");
            await Task.Delay(backoff, ct);
            backoff = TimeSpan.FromTicks(Math.Min(backoff.Ticks * 2, MaxBackoff.Ticks));
        }
    }
}
