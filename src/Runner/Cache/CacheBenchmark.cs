using System.Diagnostics;
using System.Security.Cryptography;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Cache;

/// <summary>
/// Seed 004's experiment: the chosen phases (write, read-same, read-distinct, read-miss) one after another,
/// each by <c>Concurrency</c> workers issuing operations back to back. Every operation is a sample whose
/// series is its phase; sample indexes run on across phases. A read that finds nothing is a miss, not an
/// error. The run's keys are deleted at the end, after a failure or cancel too.
/// </summary>
public sealed class CacheBenchmark(CacheConnections connections) : IBenchmarkExecutor
{
    const int DeleteBatch = 1000;

    public BenchmarkKind Kind => BenchmarkKind.Cache;

    public async Task ExecuteAsync(RunContext context, CancellationToken ct)
    {
        var p = Json.Deserialize<CacheParameters>(context.ParametersJson);
        var keys = new CacheKeys(p.KeyPrefix, context.Run.Id);
        await using var client = await OpenAsync(p);
        context.Notes.Add($"Endpoint: {client.Endpoint}. Keys of this run start with '{keys.Prefix}'.");

        var run = new CacheRun(p, keys, client, context, Stopwatch.GetTimestamp());
        try
        {
            await run.ExecutePhasesAsync(ct);
        }
        finally
        {
            await CleanUpAsync(p, keys, client, run.KeysTouched, context.Notes);
        }
    }

    async Task<ICacheClient> OpenAsync(CacheParameters p)
    {
        if (p.Backend == CacheBackend.Memory) return new MemoryCacheClient();
        var connectionString = connections.Find(p.Connection!)
            ?? throw new CacheUnavailableException($"No connection string named '{p.Connection}' is configured.");
        return await RedisCacheClient.ConnectAsync(p.Connection!, connectionString, p.Timeout);
    }

    /// <summary>Deletes data keys 0..touched−1 (miss keys are never written). Bounded in time; never throws.</summary>
    static async Task CleanUpAsync(CacheParameters p, CacheKeys keys, ICacheClient client, int touched, RunNotes notes)
    {
        if (!p.Cleanup)
        {
            notes.Add($"Cleanup was off: up to {touched:N0} keys remain under '{keys.Prefix}'.");
            return;
        }
        long deleted = 0;
        try
        {
            for (var from = 0; from < touched; from += DeleteBatch)
            {
                var batch = Enumerable.Range(from, Math.Min(DeleteBatch, touched - from)).Select(keys.Data).ToArray();
                deleted += await client.DeleteAsync(batch).WaitAsync(p.Timeout);
            }
            notes.Add($"Cleanup: deleted {deleted:N0} keys under '{keys.Prefix}'.");
        }
        catch (Exception ex)
        {
            var message = client is RedisCacheClient redis ? redis.Redact(ex.Message) : ex.Message;
            notes.Add($"Cleanup failed after deleting {deleted:N0} keys: {message} Keys may remain under '{keys.Prefix}'.");
        }
    }

    /// <summary>The state of one run while its phases execute.</summary>
    sealed class CacheRun(CacheParameters p, CacheKeys keys, ICacheClient client, RunContext context, long runStart)
    {
        readonly byte[] value = RandomNumberGenerator.GetBytes(p.ValueBytes);
        int nextIndex = -1;
        int keysTouched;

        /// <summary>How many data keys (from k0) may exist on the server: what cleanup must delete.</summary>
        public int KeysTouched => Volatile.Read(ref keysTouched);

        public async Task ExecutePhasesAsync(CancellationToken ct)
        {
            var written = false;
            foreach (var phase in p.Phases)
            {
                if (phase is CachePhase.ReadSame or CachePhase.ReadDistinct && !written)
                    await SeedAsync(phase, ct);
                if (phase == CachePhase.Write) written = true;
                await RunPhaseAsync(phase, ct);
            }
        }

        /// <summary>Reads of written keys need keys: write them first, unmeasured, and say so.</summary>
        async Task SeedAsync(CachePhase before, CancellationToken ct)
        {
            Touch(p.KeyCount);
            var failed = 0;
            for (var i = 0; i < p.KeyCount; i++)
            {
                ct.ThrowIfCancellationRequested();
                try
                {
                    await client.SetAsync(keys.Data(i), value).WaitAsync(p.Timeout, ct);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    failed++;
                }
            }
            context.Notes.Add($"Before {before.Name()}: wrote {p.KeyCount - failed:N0} of {p.KeyCount:N0} keys (not measured) so reads have something to find.");
        }

        Task RunPhaseAsync(CachePhase phase, CancellationToken ct)
        {
            Func<long> claim;
            long issued = -1;
            if (p.Requests is { } requests)
            {
                claim = () => Interlocked.Increment(ref issued) is var i && i < requests ? i : -1;
            }
            else
            {
                var deadline = Stopwatch.GetTimestamp() + (long)(p.DurationSeconds!.Value * (double)Stopwatch.Frequency);
                claim = () => Stopwatch.GetTimestamp() < deadline ? Interlocked.Increment(ref issued) : -1;
            }

            // One worker that gives up (the server is gone) stops the others too.
            var phaseCancel = CancellationTokenSource.CreateLinkedTokenSource(ct);
            var workers = Enumerable.Range(0, p.Concurrency).Select(worker => Task.Run(async () =>
            {
                try
                {
                    while (claim() is var i && i >= 0)
                        await OperateAsync(phase, i, worker, phaseCancel.Token);
                }
                catch
                {
                    await phaseCancel.CancelAsync();
                    throw;
                }
            }, phaseCancel.Token)).ToArray();
            return WhenAllAsync(workers, phaseCancel, ct);
        }

        /// <summary>Surfaces the real failure of a worker, not the cancellations it caused in the others.</summary>
        static async Task WhenAllAsync(Task[] workers, CancellationTokenSource phaseCancel, CancellationToken ct)
        {
            using (phaseCancel)
            {
                try
                {
                    await Task.WhenAll(workers);
                }
                catch when (!ct.IsCancellationRequested && workers.FirstOrDefault(w => w.IsFaulted && w.Exception!.InnerException is not OperationCanceledException) is { } failed)
                {
                    throw failed.Exception!.InnerException!;
                }
            }
        }

        async Task OperateAsync(CachePhase phase, long i, int worker, CancellationToken ct)
        {
            var key = phase switch
            {
                CachePhase.Write => keys.Data((int)(i % p.KeyCount)),
                CachePhase.ReadSame => keys.Data(0),
                CachePhase.ReadDistinct => keys.Data((int)(i % p.KeyCount)),
                _ => keys.Miss(i),
            };
            if (phase == CachePhase.Write) Touch((int)Math.Min(i + 1, p.KeyCount));

            // Numbered in the order operations start, across workers, as HTTP requests are.
            var sample = new Sample { Series = phase.Name(), Connection = worker, Index = Interlocked.Increment(ref nextIndex) };
            var start = Stopwatch.GetTimestamp();
            try
            {
                if (phase == CachePhase.Write)
                {
                    await client.SetAsync(key, value).WaitAsync(p.Timeout, ct);
                    sample.Bytes = value.Length;
                }
                else
                {
                    var length = await client.GetAsync(key).WaitAsync(p.Timeout, ct);
                    sample.Hit = length is not null;
                    sample.Bytes = length ?? 0;
                }
            }
            catch (OperationCanceledException) when (ct.IsCancellationRequested)
            {
                throw; // abandoned: an operation cut short by a cancel has no honest duration
            }
            catch (Exception ex)
            {
                sample.Error = CacheErrorClassifier.Classify(ex);
                context.Notes.AddError(sample.Error, client is RedisCacheClient redis ? redis.Redact(ex.Message) : ex.Message);
            }
            var end = Stopwatch.GetTimestamp();
            sample.OffsetNs = Ticks.ToNanoseconds(start - runStart);
            sample.LatencyNs = Ticks.ToNanoseconds(end - start);
            context.Record(sample);

            if (CacheErrorClassifier.IsConnectionLoss(sample.Error)) await AwaitReconnectAsync(ct);
        }

        /// <summary>
        /// After a lost connection every further operation would fail in microseconds and flood the run with
        /// errors; wait for the client's reconnect instead, for at most the timeout, then give up the run.
        /// </summary>
        async Task AwaitReconnectAsync(CancellationToken ct)
        {
            var giveUp = Stopwatch.GetTimestamp() + (long)(p.Timeout.TotalSeconds * Stopwatch.Frequency);
            while (!client.IsConnected)
            {
                if (Stopwatch.GetTimestamp() > giveUp)
                    throw new CacheUnavailableException(
                        $"Lost the connection to the cache server and it was not back within {p.TimeoutMs:N0} ms (timeoutMs). Samples taken before are kept.");
                await Task.Delay(20, ct);
            }
        }

        void Touch(int count)
        {
            int current;
            while ((current = Volatile.Read(ref keysTouched)) < count && Interlocked.CompareExchange(ref keysTouched, count, current) != current) { }
        }
    }
}
