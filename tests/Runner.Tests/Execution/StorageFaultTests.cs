using System.Diagnostics;
using System.Text.RegularExpressions;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.Runner.Tests.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>
/// The results database refusing writes mid-run (full, locked past the busy timeout, read-only): the load
/// stops, the run fails with the true reason and with every measured sample either stored or counted lost.
/// The load is the in-process cache, which makes samples faster than anything else here.
/// </summary>
public sealed class StorageFaultTests
{
    /// <summary>Writes for as long as it is let, hundreds of thousands of samples a second.</summary>
    static readonly CacheParameters EndlessWrites = new() { Phases = [CachePhase.Write], DurationSeconds = 60, KeyCount = 10 };
    // In-process writes reach the default sample budget (1 M) in a few seconds: then the budget, not the
    // fault, would end the load, and the run would not say the load was stopped.
    static readonly KeyValuePair<string, string> NoBudget = new("RunLimits:MaxSamplesPerRun", "1000000000");
    static readonly CacheParameters SmallRun = new() { Phases = [CachePhase.Write], Requests = 200, KeyCount = 10 };

    /// <summary>"… 1,234 samples measured, 1,000 stored, 234 lost." → the three numbers.</summary>
    static (long Measured, long Stored, long Lost) Counts(string error)
    {
        var m = Regex.Match(error, @"([\d,]+) samples measured, ([\d,]+) stored, ([\d,]+) lost\.");
        Assert.True(m.Success, error);
        long N(int group) => long.Parse(m.Groups[group].Value.Replace(",", ""));
        return (N(1), N(2), N(3));
    }

    static async Task AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(RunnerHost host, Run run)
    {
        var (measured, stored, lost) = Counts(run.Error!);
        Assert.Equal(measured, stored + lost);
        Assert.Equal(stored, (await host.SamplesAsync(run.Id)).Count);
        Assert.Equal(measured, run.CompletedRequests);
    }

    [Fact]
    public async Task AFullDatabaseStopsTheLoadAtOnceAndTheRunFailsSayingSo()
    {
        await using var host = await RunnerHost.CreateAsync(new() { ["Database:MaxSizeMiB"] = "1", [NoBudget.Key] = NoBudget.Value });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(EndlessWrites, null, default));
        await host.Host.StartAsync();

        Run run;
        try { run = await host.UntilFinalAsync(runId, seconds: 30); }
        catch (TimeoutException) { throw new TimeoutException(string.Join("\n", host.Logs.Entries.Select(e => $"{e.Level} {e.Category}: {e.Message}").TakeLast(40))); }
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.StartsWith("Storing samples failed: the database or its disk is full (SQLITE_FULL); the load was stopped.", run.Error);
        await AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(host, run);
        Assert.True(Counts(run.Error!).Lost > 0);
        Assert.True(run.EndedUtcMs - run.StartedUtcMs < 20_000, "the load ran on long after the database was full");
    }

    [Fact]
    public async Task ARealFullDiskStopsTheLoadTheRunRecordsWhyAndTheQueueGoesOnOnceThereIsRoom()
    {
        // A 12 MiB filesystem, as in the probe. On a real full disk SQLite rolls the whole transaction back itself,
        // and every write needs WAL space first: the run used to stay 'running', its reason "cannot rollback".
        using var disk = SmallDisk.Mount(12);
        await using var host = await RunnerHost.CreateAsync(new() { ["Database:Path"] = Path.Combine(disk.Path, "bench.db"), [NoBudget.Key] = NoBudget.Value });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(EndlessWrites, null, default));
        var next = await host.EnqueueAsync(queue => queue.EnqueueAsync(SmallRun, null, default));
        await host.Host.StartAsync();
        await ProgressAsync(host, runId);
        // Packed blocks of the cache's regular samples take a few bytes each: the 7 MiB left beside the database and its
        // reserve would hold more samples than storing keeps up with, and the buffer, not the disk, would stop the load.
        // So another file takes every byte left while the run is storing: its next write, and any write after, finds
        // the disk full. The outcome then fits either in the WAL pages of the write that failed (rolled back, free again)
        // or, when those are too few, in the room the reserve leaves once released: which one depends on that write.
        using var filler = Filler.TakingEveryByte(disk.Path);

        var run = await host.UntilFinalAsync(runId, seconds: 60);
        // Room again, as an operator would make it: the next run, queued all along, stores its samples and completes.
        // Until then its writer retries for Runner:StorageGiveUpSeconds (60 s), and on a busy machine each attempt on a
        // full disk is slow: a generous bound.
        filler.Dispose();
        Run after;
        try { after = await host.UntilFinalAsync(next, seconds: 240); }
        catch (TimeoutException ex)
        {
            var files = Directory.GetFiles(disk.Path).Select(f => $"{System.IO.Path.GetFileName(f)} {new FileInfo(f).Length:N0} B");
            throw new TimeoutException($"{ex.Message}\nThe disk: {new DriveInfo(disk.Path).AvailableFreeSpace:N0} B free; {string.Join(", ", files)}", ex);
        }
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.True(run.Error!.StartsWith("Storing samples failed: the database or its disk is full (SQLITE_FULL); the load was stopped.", StringComparison.Ordinal), run.Error);
        Assert.True(run.EndedUtcMs - run.StartedUtcMs < 20_000, "the load ran on long after the disk was full");
        // The run's figures were left for its first view: stored now, as large as its samples, they took the room
        // freed for the queue, and the next run stayed queued behind a full disk.
        Assert.Contains(host.Logs.Messages(LogLevel.Warning), m => m.StartsWith($"Run {runId}: its figures are made when it is first looked at", StringComparison.Ordinal));
        await AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(host, run);
        // A block write that failed was rolled back whole, the tail block it replaced included: no sample twice, none half.
        var stored = await host.SamplesAsync(runId);
        Assert.Equal(stored.Count, stored.Select(s => s.Index).Distinct().Count());
        Assert.Equal(stored.Count, await host.WithDbAsync(db => db.SampleBlocks.Where(b => b.RunId == runId).SumAsync(b => b.Count)));
        // The failures are reported by the runner, once each: EF Core's own error lines are turned down.
        Assert.DoesNotContain(host.Logs.Entries, e => e.Level >= LogLevel.Error && e.Category.StartsWith("Microsoft.EntityFrameworkCore", StringComparison.Ordinal));
        Assert.True(after.Status == RunStatus.Completed, after.Error);
        Assert.Equal(200, (await host.SamplesAsync(next)).Count);
    }

    [Fact]
    public void TheReserveTakesRealSpaceAndIsFreedWhenReleased()
    {
        using var disk = SmallDisk.Mount(8);
        var options = Microsoft.Extensions.Options.Options.Create(new BenchDashboard.Core.Data.DatabaseOptions { Path = Path.Combine(disk.Path, "bench.db"), ReserveMiB = 4 });
        var environment = new Microsoft.Extensions.Hosting.Internal.HostingEnvironment { ContentRootPath = disk.Path };
        var reserve = new BenchDashboard.Core.Data.StorageReserve(options, environment, Microsoft.Extensions.Logging.Abstractions.NullLogger<BenchDashboard.Core.Data.StorageReserve>.Instance);
        long Free() => new DriveInfo(disk.Path).AvailableFreeSpace;

        var before = Free();
        reserve.Ensure();
        Assert.InRange(before - Free(), 4L << 20, 5L << 20); // written, not sparse: the space is really taken
        Assert.True(reserve.Release());
        Assert.InRange(Free(), before - (1L << 20), before);
        Assert.False(reserve.Release()); // nothing left to release
    }

    [Fact]
    public async Task ADatabaseLockedPastTheBusyTimeoutStopsTheLoadAndTheQueueGoesOnOnceItIsFree()
    {
        // A paced load (about 1,000 requests/s), so the stall bound, not the buffer, stops it.
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(new()
        {
            ["Database:BusyTimeoutSeconds"] = "1", ["Runner:StorageStallSeconds"] = "2", ["Runner:StorageGiveUpSeconds"] = "30",
        });
        var locked = await host.EnqueueAsync(queue => queue.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), DurationSeconds = 60 }, null, default));
        var next = await host.EnqueueAsync(queue => queue.EnqueueAsync(SmallRun, null, default));
        await host.Host.StartAsync();
        await ProgressAsync(host, locked);

        // Another process takes the write lock for 6 s: every write of the runner waits 1 s and fails with SQLITE_BUSY.
        await using (var holder = new SqliteConnection($"Data Source={host.DatabasePath}"))
        {
            await holder.OpenAsync();
            await using var command = holder.CreateCommand();
            command.CommandText = "BEGIN IMMEDIATE;"; // the write lock (in WAL mode, IMMEDIATE and EXCLUSIVE are the same)
            await command.ExecuteNonQueryAsync();
            await Task.Delay(TimeSpan.FromSeconds(6));
            command.CommandText = "COMMIT;";
            await command.ExecuteNonQueryAsync();
        }

        var run = await host.UntilFinalAsync(locked, seconds: 60);
        var after = await host.UntilFinalAsync(next, seconds: 60);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.True(Regex.IsMatch(run.Error!, @"^Storing samples failed: the database is locked by another connection \(SQLITE_BUSY\) for \d+ s; the load was stopped\."), run.Error);
        await AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(host, run);
        Assert.Equal(0, Counts(run.Error!).Lost); // the lock went away within the give-up bound: the buffer was stored
        Assert.Equal(RunStatus.Completed, after.Status);
        Assert.Equal(200, (await host.SamplesAsync(next)).Count);
    }

    [Fact]
    public async Task ALockThatOutlastsTheBufferIsStillTheReasonGiven()
    {
        // A paced load (about 1,000 requests/s) against a buffer of 2,000 that the 6 s lock outlasts.
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(new()
        {
            ["Database:BusyTimeoutSeconds"] = "1", ["Runner:StorageStallSeconds"] = "30", ["Runner:SampleBufferSize"] = "2000",
        });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), DurationSeconds = 60 }, null, default));
        await host.Host.StartAsync();
        await ProgressAsync(host, runId);
        await using (var holder = new SqliteConnection($"Data Source={host.DatabasePath}"))
        {
            await holder.OpenAsync();
            await using var command = holder.CreateCommand();
            command.CommandText = "BEGIN IMMEDIATE;";
            await command.ExecuteNonQueryAsync();
            await Task.Delay(TimeSpan.FromSeconds(6));
            command.CommandText = "COMMIT;";
            await command.ExecuteNonQueryAsync();
        }

        var run = await host.UntilFinalAsync(runId, seconds: 60);
        await host.Host.StopAsync();

        Assert.True(Regex.IsMatch(run.Error!, @"^Storing samples failed: the database is locked by another connection \(SQLITE_BUSY\) for \d+ s, and the 2,000 samples waiting filled the buffer; the load was stopped\."), run.Error);
        await AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(host, run);
    }

    [Fact]
    public async Task WhenStoringCannotKeepUpTheBufferStaysBoundedAndTheRunSaysHowManyWereLost()
    {
        // One sample per transaction, each made durable: far slower than the in-process cache makes them.
        await using var host = await RunnerHost.CreateAsync(new()
        {
            ["Runner:SampleBufferSize"] = "1000", ["Runner:SampleBatchSize"] = "1", ["Runner:SampleFlushIntervalMs"] = "0",
        });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(EndlessWrites, null, default));
        await host.Host.StartAsync();

        var run = await host.UntilFinalAsync(runId, seconds: 30);
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.StartsWith("Storing samples failed: storing could not keep up: 1,000 samples were waiting to be stored; the load was stopped.", run.Error);
        await AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(host, run);
        Assert.True(Counts(run.Error!).Lost > 0);
    }

    [Fact]
    public async Task AReadOnlyDatabaseStopsTheLoadAndTheLoopBacksOffSayingWhyUntilItIsWritableAgain()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var host = await RunnerHost.CreateAsync(new()
        {
            ["Runner:StorageStallSeconds"] = "1", ["Runner:StorageGiveUpSeconds"] = "1", ["Runner:PollIntervalMs"] = "50",
        });
        var runId = await host.EnqueueAsync(queue => queue.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), DurationSeconds = 60 }, null, default));
        var next = await host.EnqueueAsync(queue => queue.EnqueueAsync(SmallRun, null, default));
        await host.Host.StartAsync();
        await ProgressAsync(host, runId);

        var pulse = host.Services.GetRequiredService<RunnerPulse>();
        using (ReadOnlyFiles.Make(host.DatabasePath))
        {
            // The run's writer fails, its load stops; the loop's own writes fail and it says why, without flooding the log.
            var deadline = Stopwatch.StartNew();
            while (pulse.Failure is null && deadline.Elapsed < TimeSpan.FromSeconds(30)) await Task.Delay(50);
            Assert.NotNull(pulse.Failure);
            Assert.Matches("read-only|I/O error", pulse.Failure!.Reason);
            await Task.Delay(TimeSpan.FromSeconds(4));
            Assert.InRange(host.Logs.Messages(LogLevel.Error).Count(m => m.StartsWith("Runner loop failed", StringComparison.Ordinal)), 1, 2);
        }

        Run run;
        try { run = await host.UntilFinalAsync(runId, seconds: 60); }
        catch (TimeoutException) { throw new TimeoutException(string.Join("\n", host.Logs.Entries.Select(e => $"{e.Level} {e.Category}: {e.Message}").TakeLast(30))); }
        Run after;
        try { after = await host.UntilFinalAsync(next, seconds: 60); }
        catch (TimeoutException) { throw new TimeoutException(string.Join("\n", host.Logs.Entries.Select(e => $"{e.Level} {e.Category}: {e.Message}").TakeLast(30))); }
        await host.Host.StopAsync();

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.True(Regex.IsMatch(run.Error!, @"^Storing samples failed: the (database is read-only \(SQLITE_READONLY\)|disk reported an I/O error \(SQLITE_IOERR[^)]*\)) for \d+ s; the load was stopped\."), run.Error);
        await AssertEveryMeasuredSampleIsStoredOrCountedLostAsync(host, run);
        Assert.Equal(RunStatus.Completed, after.Status); // once the file is writable again, the queue goes on
        Assert.Null(pulse.Failure);
    }

    static async Task ProgressAsync(RunnerHost host, long runId)
    {
        var deadline = Stopwatch.StartNew();
        while ((await host.RunAsync(runId)).CompletedRequests < 1000)
        {
            Assert.True(deadline.Elapsed < TimeSpan.FromSeconds(30), "the run never got going");
            await Task.Delay(50);
        }
    }
}

/// <summary>A file of real (not sparse) zeros written until the disk refuses more; deleted on dispose.</summary>
sealed class Filler : IDisposable
{
    readonly string path;

    Filler(string directory)
    {
        path = Path.Combine(directory, "filler");
        using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, bufferSize: 0);
        var page = new byte[4096];
        try
        {
            while (true) file.Write(page);
        }
        catch (IOException) when (new DriveInfo(directory).AvailableFreeSpace < page.Length) { } // ENOSPC: the disk is full
    }

    public static Filler TakingEveryByte(string directory) => new(directory);

    public void Dispose() => File.Delete(path);
}

/// <summary>
/// Makes a SQLite database and its WAL files unwritable for a while. As root (this project's test machines)
/// permissions do not stop a write, so the files are made immutable (chattr +i), which is also what killed
/// the process with SIGBUS before the runner checked for it; otherwise they lose their write permission and
/// pooled connections are closed so that new ones open read-only.
/// </summary>
sealed class ReadOnlyFiles : IDisposable
{
    readonly string[] files;
    readonly bool root = Environment.UserName == "root";

    ReadOnlyFiles(string database)
    {
        files = new[] { database, database + "-wal", database + "-shm" }.Where(File.Exists).ToArray();
        // As root, the WAL index (-shm) stays writable: SQLite maps it into memory, and a write to a page of an
        // immutable mapped file mid-transaction is a SIGBUS that ends the whole test host (the likely cause of one
        // crash of this suite's host). The database and its WAL made immutable are the same read-only fault.
        if (root) Run("chattr", ["+i", .. files.Where(f => !f.EndsWith("-shm", StringComparison.Ordinal))]);
        else
        {
            Run("chmod", ["444", .. files]);
            SqliteConnection.ClearAllPools(); // open connections keep their write access; new ones will not
        }
    }

    public static ReadOnlyFiles Make(string database) => new(database);

    static void Run(string command, string[] arguments)
    {
        using var process = Process.Start(new ProcessStartInfo(command, arguments) { RedirectStandardError = true })!;
        process.WaitForExit();
        Assert.True(process.ExitCode == 0, $"{command} {string.Join(' ', arguments)}: {process.StandardError.ReadToEnd()}");
    }

    public void Dispose()
    {
        if (root) Run("chattr", ["-i", .. files]);
        else Run("chmod", ["644", .. files]);
    }
}
