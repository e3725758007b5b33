using System.Diagnostics;
using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>
/// The standalone runner killed with SIGKILL at four moments of a run, then started again on the same
/// database: it recognises the run as its own at once (not after the heartbeat goes stale), sets its progress
/// to what is stored, and calls it completed exactly when the load had ended and every sample was stored.
/// </summary>
public sealed class CrashRecoveryTests(Xunit.Abstractions.ITestOutputHelper output)
{
    /// <returns>The run as the kill left it, how many samples were stored then, and the run once recovered.</returns>
    async Task<(Run AtKill, int StoredAtKill, Run Recovered)> KillThenRestartAsync(RunnerHost db, long runId, Func<Run, bool> killWhen, Dictionary<string, string>? settings = null)
    {
        await using (var runner = await RunnerProcess.StartAsync(db.DatabasePath, settings))
        {
            var deadline = Stopwatch.StartNew();
            while (!killWhen(await db.RunAsync(runId)))
            {
                Assert.True(deadline.Elapsed < TimeSpan.FromSeconds(60), $"the moment to kill never came: {await db.RunAsync(runId) is var r} {r.Status} {r.CompletedRequests}");
                await Task.Delay(5);
            }
            runner.Kill();
        }
        var atKill = await db.RunAsync(runId);
        var storedAtKill = (await db.SamplesAsync(runId)).Count;
        Assert.Equal(RunStatus.Running, atKill.Status); // nobody finished it

        // A new process of the same runner: it must end the run at once, far sooner than StaleAfterSeconds (30 s).
        var restarted = Stopwatch.StartNew();
        await using var again = await RunnerProcess.StartAsync(db.DatabasePath, settings);
        var run = await db.UntilFinalAsync(runId, seconds: 20);
        Assert.True(restarted.Elapsed < TimeSpan.FromSeconds(15), $"recovered after {restarted.Elapsed.TotalSeconds:N1} s");
        output.WriteLine($"killed with {atKill.CompletedRequests:N0} requests reported, {storedAtKill:N0} samples stored, load {(atKill.MeasuredSamples is { } m ? $"ended at {m:N0}" : "under way")}; " +
            $"recovered {restarted.Elapsed.TotalSeconds:N1} s after the restart as {run.Status} with {run.CompletedRequests:N0} samples");
        return (atKill, storedAtKill, run);
    }

    static async Task AssertRecoveredFromWhatIsStoredAsync(RunnerHost db, Run run)
    {
        var stored = (await db.SamplesAsync(run.Id)).Count;
        Assert.Equal(stored, run.CompletedRequests);
        if (run.MeasuredSamples == stored)
        {
            Assert.Equal(RunStatus.Completed, run.Status);
            Assert.Null(run.Error);
        }
        else
        {
            Assert.Equal(RunStatus.Interrupted, run.Status);
            Assert.Equal($"The runner's process ended during this run; it was recovered when the runner started again. The {stored} samples stored before that are kept.", run.Error);
        }
    }

    [Fact]
    public async Task KilledDuringWarmUpTheRunIsInterruptedWithItsWarmUpSamples()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var db = await RunnerHost.CreateAsync();
        var runId = await db.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=2").ToString(), WarmupRequests = 3000, Requests = 100 }, null, default));

        var (_, _, run) = await KillThenRestartAsync(db, runId, r => r.CompletedRequests >= 300);

        await AssertRecoveredFromWhatIsStoredAsync(db, run);
        Assert.Equal(RunStatus.Interrupted, run.Status);
        Assert.All(await db.SamplesAsync(runId), s => Assert.True(s.IsWarmup));
    }

    [Fact]
    public async Task KilledMidRunTheRunIsInterruptedWithEverySampleStoredBeforeTheKill()
    {
        await using var target = await KestrelTarget.StartAsync();
        await using var db = await RunnerHost.CreateAsync();
        var runId = await db.EnqueueAsync(q => q.EnqueueAsync(new HttpParameters { Url = target.Url("/delay?ms=1").ToString(), WarmupRequests = 10, Requests = 20_000 }, null, default));

        var (_, _, run) = await KillThenRestartAsync(db, runId, r => r.CompletedRequests >= 1_000);

        await AssertRecoveredFromWhatIsStoredAsync(db, run);
        Assert.Equal(RunStatus.Interrupted, run.Status);
        Assert.Contains(await db.SamplesAsync(runId), s => !s.IsWarmup);
    }

    [Fact]
    public async Task KilledInTheLast50MillisecondsTheRunIsRecoveredByTheSameRule()
    {
        // On a schedule: closed, in-process writes run at ~1 M/s and fill the sample buffer on a fast machine.
        await using var db = await RunnerHost.CreateAsync();
        var runId = await db.EnqueueAsync(q => q.EnqueueAsync(new CacheParameters { Phases = [CachePhase.Write], DurationSeconds = 2, KeyCount = 10, Model = LoadModel.Open, Rate = 20_000 }, null, default));

        var (atKill, _, run) = await KillThenRestartAsync(db, runId,
            r => r.StartedUtcMs is { } started && DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() >= started + 1_950);

        Assert.Null(atKill.MeasuredSamples); // killed before the load had ended
        await AssertRecoveredFromWhatIsStoredAsync(db, run);
    }

    [Fact]
    public async Task KilledDuringTheFinalFlushTheRunKnowsItsLoadHadEndedAndStaysHonestAboutWhatIsStored()
    {
        // In-process writes (~1 M/s) outrun a writer that commits every 20 samples (tens of thousands a second): a
        // backlog that takes it seconds to store, so the kill comes while the final flush is under way. A count, not
        // a duration: a second of writes on a faster machine filled the 1 M-sample buffer and the run failed by
        // design before the moment to kill came.
        await using var db = await RunnerHost.CreateAsync();
        var runId = await db.EnqueueAsync(q => q.EnqueueAsync(new CacheParameters { Phases = [CachePhase.Write], Requests = 400_000, KeyCount = 10 }, null, default));

        var (atKill, storedAtKill, run) = await KillThenRestartAsync(db, runId, r => r.MeasuredSamples is not null, new() { ["Runner:SampleBatchSize"] = "20" });

        Assert.True(storedAtKill < atKill.MeasuredSamples, $"killed with {storedAtKill} of {atKill.MeasuredSamples} samples stored: not during the flush");
        Assert.NotNull(run.MeasuredSamples);
        await AssertRecoveredFromWhatIsStoredAsync(db, run);
    }

    [Fact]
    public async Task ARunWhoseLoadHadEndedAndWhoseSamplesAreAllStoredIsCompletedOnRecovery()
    {
        await using var db = await RunnerHost.CreateAsync();
        // As a runner left it when it died right after storing its last sample, before recording the end.
        var runId = await db.WithDbAsync(async context =>
        {
            var run = new Run
            {
                Kind = CacheKind.KindName, ParametersJson = Json.Serialize(new CacheParameters { Requests = 3 }), Status = RunStatus.Running,
                QueuedUtcMs = 1, StartedUtcMs = 1, HeartbeatUtcMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(), RunnerName = $"{Environment.MachineName}/1",
                MeasuredSamples = 3, CompletedRequests = 1,
            };
            context.Runs.Add(run);
            await context.SaveChangesAsync();
            context.Samples.AddRange(Enumerable.Range(0, 3).Select(i => new Sample { RunId = run.Id, Index = i, LatencyNs = 1000, Series = "write" }));
            await context.SaveChangesAsync();
            return run.Id;
        });

        await db.Host.StartAsync(); // this runner is "{machine}/1": the run is its own
        var recovered = await db.UntilFinalAsync(runId, seconds: 10);
        await db.Host.StopAsync();

        Assert.Equal((RunStatus.Completed, 3, (string?)null), (recovered.Status, recovered.CompletedRequests, recovered.Error));
        Assert.Contains("Every measured sample had been stored, so the run is complete", recovered.NotesJson);
    }
}

/// <summary>The standalone runner (src/Runner) as a child process on a given database, so a test can kill it with SIGKILL.</summary>
sealed class RunnerProcess : IAsyncDisposable
{
    readonly Process process;

    RunnerProcess(Process process) => this.process = process;

    public static async Task<RunnerProcess> StartAsync(string databasePath, Dictionary<string, string>? settings = null)
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "BenchDashboard.Runner.dll");
        var arguments = new List<string> { dll, $"--Database:Path={databasePath}", "--Runner:PollIntervalMs=50", "--Runner:HeartbeatIntervalMs=100", "--Targets:AllowLoopback=true" };
        arguments.AddRange((settings ?? []).Select(s => $"--{s.Key}={s.Value}"));
        var start = new ProcessStartInfo("dotnet", arguments) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the runner.");
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        await Task.Yield();
        return new RunnerProcess(process);
    }

    /// <summary>SIGKILL: no shutdown, no finally blocks, nothing flushed.</summary>
    public void Kill()
    {
        process.Kill();
        process.WaitForExit();
    }

    public ValueTask DisposeAsync()
    {
        if (!process.HasExited) Kill();
        process.Dispose();
        return ValueTask.CompletedTask;
    }
}
