using System.Diagnostics;
using System.Threading.Channels;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Processing.Telemetry;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Processing.Storing;

/// <summary>
/// Drains a run's samples into the database in batches, off the measurement path. Samples are stored as packed
/// blocks (<see cref="SampleBlockAppender"/>: a few rows a batch instead of one a sample) on EF Core's own connection
/// and transaction, but not as entities: tracked entities cost 53 µs of CPU per sample (bench/README.md), which on a
/// 2-core machine took most of a core from the requests being measured. The schema is still EF's. A commit has a cost of
/// its own, so a batch that was not full is followed by a pause of <c>flushInterval</c>: at 7,000
/// samples/s in ones and twos the commits alone took the CPU that Redis and the client needed.
/// <para>
/// Storage faults (a lock held past the busy timeout, a full disk, a read-only or failing file) do not stop
/// the writer: it retries the same batch with backoff and reports how long it has been failing, so the
/// run can stop its load (<see cref="RunProcessor"/>). Only once the load has stopped and storing has still
/// failed for <c>giveUpAfter</c> does it give up; what it holds then is counted as lost, never dropped silently.
/// The buffer holds at most <c>capacity</c> samples: <see cref="TryAdd"/> refuses past that, without ever
/// waiting, so a slow disk cannot stall request timing.
/// </para>
/// </summary>
/// <param name="storing">The thread batches are stored on (a run's <see cref="BackgroundThread"/>).</param>
public sealed class SampleWriter(IServiceScopeFactory scopes, int batchSize, TimeSpan flushInterval, int capacity, TimeSpan giveUpAfter,
    BackgroundThread storing)
{
    static readonly TimeSpan FirstBackoff = TimeSpan.FromMilliseconds(100), MaxBackoff = TimeSpan.FromSeconds(2);

    // Unbounded underneath, bounded by the count: the channel's own bound would take a lock on every write.
    readonly Channel<Sample> channel = Channel.CreateUnbounded<Sample>(new UnboundedChannelOptions { SingleReader = true });
    long buffered, stored, failingSince, completedAt, longestFailureTicks, attemptStarted;
    volatile StorageFault? fault, lastFault;
    // Only the storing thread touches it, one batch at a time.
    readonly SampleBlockAppender blocks = new();

    /// <summary>Queues a sample; false when the buffer is full (the caller must stop the load: storing cannot keep up).</summary>
    public bool TryAdd(Sample sample)
    {
        if (Interlocked.Increment(ref buffered) > capacity)
        {
            Interlocked.Decrement(ref buffered);
            return false;
        }
        return channel.Writer.TryWrite(sample);
    }

    /// <summary>No more samples will come; the writer stores what it holds, or gives up after <c>giveUpAfter</c> of failing.</summary>
    public void Complete()
    {
        Interlocked.CompareExchange(ref completedAt, Stopwatch.GetTimestamp(), 0);
        channel.Writer.TryComplete();
    }

    public long Stored => Interlocked.Read(ref stored);
    public long Buffered => Interlocked.Read(ref buffered);

    /// <summary>Why the last attempt to store failed, while storing is failing; null once a batch is stored again.</summary>
    public StorageFault? Fault => fault;

    /// <summary>The last fault seen during the run, even if storing recovered since: why a buffer filled up.</summary>
    public StorageFault? LastFault => lastFault;

    /// <summary>The longest stretch storing failed without a success, the current one included.</summary>
    public TimeSpan LongestFailure => TimeSpan.FromTicks(Math.Max(Interlocked.Read(ref longestFailureTicks), FailingFor.Ticks));

    void RecordFailure(TimeSpan length)
    {
        long current;
        while ((current = Interlocked.Read(ref longestFailureTicks)) < length.Ticks && Interlocked.CompareExchange(ref longestFailureTicks, length.Ticks, current) != current) { }
    }

    /// <summary>
    /// How long storing has made no progress: since the first failed attempt began (a write that waits out a
    /// lock's busy timeout was already failing while it waited), or since the write under way began; zero when
    /// it is not stuck.
    /// </summary>
    public TimeSpan FailingFor =>
        Interlocked.Read(ref failingSince) is var since and > 0 ? Stopwatch.GetElapsedTime(since)
        : Interlocked.Read(ref attemptStarted) is var started and > 0 ? Stopwatch.GetElapsedTime(started)
        : TimeSpan.Zero;

    /// <summary>
    /// Where each sample's metrics go when telemetry is on (<see cref="BenchDashboard.Processing.Telemetry.RunMetrics"/>): recorded here, on the
    /// writer's thread as it takes samples, so the OpenTelemetry SDK's per-sample work is off the measurement path.
    /// </summary>
    public BenchDashboard.Processing.Telemetry.RunMetrics? Metrics { get; set; }

    /// <summary>Gave up with samples unstored (the run must say how many were lost).</summary>
    public bool GaveUp { get; private set; }

    /// <summary>Runs until every sample is stored after <see cref="Complete"/>, or until it gives up. Never throws for a storage fault.</summary>
    public async Task WriteAllAsync()
    {
        var batch = new List<Sample>(batchSize);
        while (await channel.Reader.WaitToReadAsync())
        {
            while (batch.Count < batchSize && channel.Reader.TryRead(out var sample))
            {
                batch.Add(sample);
                Metrics?.Record(sample);
            }
            if (!await SaveWithRetriesAsync(batch))
            {
                GaveUp = true;
                return;
            }
            Interlocked.Add(ref buffered, -batch.Count);
            var full = batch.Count == batchSize;
            batch.Clear();
            if (!full && flushInterval > TimeSpan.Zero && !channel.Reader.Completion.IsCompleted) await Task.Delay(flushInterval);
        }
    }

    /// <summary>Stores the batch, retrying storage faults with backoff; false when giving up.</summary>
    async Task<bool> SaveWithRetriesAsync(List<Sample> batch)
    {
        var backoff = FirstBackoff;
        while (true)
        {
            var started = Stopwatch.GetTimestamp();
            Interlocked.Exchange(ref attemptStarted, started);
            try
            {
                await storing.Run(() => Save(batch));
                Interlocked.Exchange(ref attemptStarted, 0);
                Interlocked.Add(ref stored, batch.Count);
                if (Interlocked.Exchange(ref failingSince, 0) is var since and > 0) RecordFailure(Stopwatch.GetElapsedTime(since));
                fault = null;
                return true;
            }
            catch (Exception ex)
            {
                // Anything but the database's own report (SQLite's, PostgreSQL's) is a bug here, not a passing condition: give up at once.
                var current = StorageFault.Of(ex) ?? new StorageFault($"storing failed: {ex.GetType().Name}: {ex.Message}", false);
                fault = current;
                lastFault = current;
                StorageFault.ForgetConnections();
                Interlocked.CompareExchange(ref failingSince, started, 0);
                Interlocked.Exchange(ref attemptStarted, 0);
                if (!current.MayPass || GiveUpNow()) return false;
            }
            await Task.Delay(backoff);
            backoff = TimeSpan.FromTicks(Math.Min(backoff.Ticks * 2, MaxBackoff.Ticks));
        }
    }

    /// <summary>Only after the load has stopped: while it runs, the run decides when to stop it.</summary>
    bool GiveUpNow() =>
        Interlocked.Read(ref completedAt) is var completed and > 0
        && Stopwatch.GetElapsedTime(Math.Max(completed, Interlocked.Read(ref failingSince))) > giveUpAfter;

    /// <summary>
    /// One transaction for the batch, with blocking calls, on the storing thread (<see cref="SaveWithRetriesAsync"/>).
    /// Not async on purpose: with socket completions inline
    /// (<see cref="RunnerOptions.InlineSocketCompletions"/>) an awaited PostgreSQL read resumes on the one event
    /// thread, and the rest of the batch's COPY would run there, holding up every measured connection.
    /// After SQLITE_FULL (or a read-only WAL) SQLite has already rolled the transaction back, so rolling back again, which disposing the transaction or closing the connection does,
    /// throws "cannot rollback - no transaction is active": that must never replace the failure that matters.
    /// </summary>
    void Save(List<Sample> batch)
    {
        var scope = scopes.CreateScope();
        IDbContextTransaction? transaction = null;
        Exception? failure = null;
        try
        {
            var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            transaction = db.Database.BeginTransaction();
            var written = blocks.Write(db.Database.GetDbConnection(), transaction.GetDbTransaction(), batch);
            transaction.Commit();
            blocks.Committed(written);
        }
        catch (Exception ex)
        {
            failure = ex;
            throw;
        }
        finally
        {
            try
            {
                transaction?.Dispose();
                scope.Dispose();
            }
            catch (Exception) when (failure is not null)
            {
                try { scope.Dispose(); } catch (Exception) { } // the connection still goes back to the pool
            }
        }
    }
}
