using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Stores;
using BenchDashboard.TestSupport;
using StackExchange.Redis;

namespace BenchDashboard.Runner.Tests.Cache;

/// <summary>The cache run's four phases against a real redis-server on 127.0.0.1 and against the in-process backend.</summary>
public sealed class CacheBenchmarkTests
{
    [Fact]
    public async Task TheFourPhasesGiveTheRightHitsAndMissesAgainstRedis()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var (run, samples) = await CacheRuns.ExecuteAsync(host, CacheRuns.Redis("phases") with { KeyCount = 40, Concurrency = 3 });

        Assert.Equal(RunStatus.Completed, run.Status);
        AssertSeedPhases(samples);
        Assert.Contains($"127.0.0.1:{redis.Port}", Json.Deserialize<RunNotes>(run.NotesJson!).Notes[0]);
        Assert.Equal("RESP3", Json.Deserialize<EnvironmentSnapshot>(run.EnvironmentJson!).Client!["redisProtocol"]);
    }

    [Fact]
    public async Task TheRunRecordsTheProtocolItsConnectionStringAskedFor()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync($"{redis.ConnectionString},protocol=resp2");
        var (run, _) = await CacheRuns.ExecuteAsync(host, CacheRuns.Redis("resp2") with { Phases = [CachePhase.Write] });

        Assert.Equal(RunStatus.Completed, run.Status);
        var environment = Json.Deserialize<EnvironmentSnapshot>(run.EnvironmentJson!);
        Assert.Equal("RESP2", environment.Client!["redisProtocol"]);
        Assert.Equal("RESP2", environment.Field("redisProtocol")); // what the runs list's env filter reads
    }

    [Fact]
    public async Task TheFourPhasesGiveTheRightHitsAndMissesInMemory()
    {
        await using var host = await CacheRuns.HostAsync(null);
        var (run, samples) = await CacheRuns.ExecuteAsync(host, new CacheParameters { Requests = 100, KeyCount = 40 });

        Assert.Equal(RunStatus.Completed, run.Status);
        AssertSeedPhases(samples);
        Assert.Null(Json.Deserialize<EnvironmentSnapshot>(run.EnvironmentJson!).Client); // no server, nothing negotiated
    }

    [Fact]
    public async Task TheOpenModelKeepsCountsAndPhasesExactAgainstRedis()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        // Each phase follows the schedule from its own start: 100 operations at 500 /s, 2 ms apart.
        var (run, samples) = await CacheRuns.ExecuteAsync(host, CacheRuns.Redis("open") with
        {
            KeyCount = 40, Concurrency = 3, Model = LoadModel.Open, Rate = 500,
        });

        Assert.Equal(RunStatus.Completed, run.Status);
        AssertSeedPhases(samples);
        foreach (var phase in samples.GroupBy(s => s.Series))
        {
            var ordered = phase.OrderBy(s => s.Index).ToList();
            Assert.All(ordered, (s, i) => Assert.InRange(s.OffsetNs - ordered[0].OffsetNs - i * 2_000_000L, -1, 1));
            Assert.All(ordered, s => Assert.True(s.LagNs >= 0 && s.LatencyNs >= s.LagNs));
        }
        var notes = Json.Deserialize<RunNotes>(run.NotesJson!);
        Assert.All(new[] { "write", "read-same", "read-distinct", "read-miss" }, phase => Assert.Contains(notes.Notes, n => n.StartsWith($"Open model ({phase}): 100 operations", StringComparison.Ordinal)));
        var stats = RunStatistics.From(samples);
        Assert.True(stats.IsOpenModel);
        Assert.Equal(400, stats.Lag!.Count);
    }

    [Fact]
    public async Task AnOpenPhaseWithADurationHasExactlyRateTimesDurationOperations()
    {
        await using var host = await CacheRuns.HostAsync(null);
        var (run, samples) = await CacheRuns.ExecuteAsync(host, new CacheParameters
        {
            Phases = [CachePhase.Write, CachePhase.ReadMiss], DurationSeconds = 1, Model = LoadModel.Open, Rate = 300, Concurrency = 2,
        });

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(Enumerable.Range(0, 600), samples.Select(s => s.Index));
        Assert.Equal([300, 300], samples.GroupBy(s => s.Series).Select(g => g.Count()));
        Assert.All(samples.Where(s => s.Series == "read-miss"), s => Assert.False(s.Hit));
    }

    static void AssertSeedPhases(List<Sample> samples)
    {
        // Every operation is a sample, numbered without gaps, phase after phase in the order asked for.
        Assert.Equal(Enumerable.Range(0, 400), samples.Select(s => s.Index));
        Assert.Equal(["write", "read-same", "read-distinct", "read-miss"], samples.Select(s => s.Series).Distinct());
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));

        var phases = SeriesStatistics.From(samples).ToDictionary(p => p.Name);
        Assert.All(phases.Values, p => Assert.Equal(100, p.Statistics.Count));
        Assert.Equal((0, 0), (phases["write"].Hits, phases["write"].Misses));
        Assert.Equal((100, 0), (phases["read-same"].Hits, phases["read-same"].Misses));
        Assert.Equal((100, 0), (phases["read-distinct"].Hits, phases["read-distinct"].Misses));
        Assert.Equal((0, 100), (phases["read-miss"].Hits, phases["read-miss"].Misses));
        Assert.All(samples.Where(s => s.Series == "write"), s => Assert.Null(s.Hit));
        Assert.All(samples.Where(s => s.Hit == true), s => Assert.Equal(16, s.Bytes));
        Assert.All(samples, s => Assert.True(s.LatencyNs > 0));
    }

    [Fact]
    public async Task KeysAreDeletedAfterTheRunUnlessCleanupIsOff()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var first = await CacheRuns.HostAsync(redis.ConnectionString);
        var (cleaned, _) = await CacheRuns.ExecuteAsync(first, CacheRuns.Redis("cleaned") with { KeyCount = 40 });
        await using var second = await CacheRuns.HostAsync(redis.ConnectionString);
        var (kept, _) = await CacheRuns.ExecuteAsync(second, CacheRuns.Redis("kept") with { KeyCount = 40, Cleanup = false });

        using var admin = await ConnectionMultiplexer.ConnectAsync(redis.ConnectionString);
        var server = admin.GetServer(admin.GetEndPoints()[0]);
        Assert.Empty(server.Keys(pattern: "cleaned:*"));
        Assert.Equal(40, server.Keys(pattern: "kept:*").Count()); // the check above can see keys that are there
        Assert.Contains(Json.Deserialize<RunNotes>(cleaned.NotesJson!).Notes, n => n.StartsWith("Cleanup: deleted 40 keys", StringComparison.Ordinal));
        Assert.Contains(Json.Deserialize<RunNotes>(kept.NotesJson!).Notes, n => n.StartsWith("Cleanup was off", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ReadsWithoutAWritePhaseFindKeysWrittenBeforehandAndNotMeasured()
    {
        await using var host = await CacheRuns.HostAsync(null);
        var (run, samples) = await CacheRuns.ExecuteAsync(host,
            new CacheParameters { Requests = 60, KeyCount = 25, Phases = [CachePhase.ReadDistinct, CachePhase.ReadSame] });

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(120, samples.Count);
        Assert.All(samples, s => Assert.True(s.Hit));
        // Seeded once, before the first read phase, with the keys its reads can ask for.
        Assert.Equal("Before read-distinct: wrote 25 of 25 keys (not measured) so reads have something to find.",
            Assert.Single(Json.Deserialize<RunNotes>(run.NotesJson!).Notes, n => n.Contains("not measured", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task WritesPastMaxMemoryAreClassifiedServerErrorsAndDistinctReadsHitExactlyTheWrittenKeys()
    {
        // Seed 004's 10,000 writes met a rate limit; a full Redis with noeviction answers OOM errors.
        await using var redis = await RedisServer.StartAsync("--maxmemory", "2mb", "--maxmemory-policy", "noeviction");
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var p = CacheRuns.Redis("full") with { ValueBytes = 16 * 1024, KeyCount = 400, Requests = 400, Phases = [CachePhase.Write, CachePhase.ReadDistinct] };
        var (run, samples) = await CacheRuns.ExecuteAsync(host, p);

        Assert.Equal(RunStatus.Completed, run.Status);
        var writes = samples.Where(s => s.Series == "write").ToList();
        var stored = writes.Count(s => s.Error == ErrorKind.None);
        var refused = writes.Count(s => s.Error == ErrorKind.ServerError);
        Assert.True(stored > 0 && refused > 0, $"{stored} stored, {refused} refused");
        Assert.Equal(400, stored + refused);
        Assert.Equal(stored, samples.Count(s => s.Series == "read-distinct" && s.Hit == true));
        Assert.Equal(400 - stored, samples.Count(s => s.Series == "read-distinct" && s.Hit == false));

        var oom = Assert.Single(Json.Deserialize<RunNotes>(run.NotesJson!).ErrorMessages);
        Assert.Equal((ErrorKind.ServerError, refused), (oom.Kind, oom.Count));
        Assert.StartsWith("OOM", oom.Message);
    }

    [Fact]
    public async Task KillingTheServerMidRunEndsTheRunWithAReasonAndKeepsTheSamplesBefore()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var p = CacheRuns.Redis("killed") with { Requests = null, DurationSeconds = 120, Phases = [CachePhase.Write, CachePhase.ReadSame], TimeoutMs = 1000 };
        var killedAt = DateTime.MinValue;
        var (run, samples) = await CacheRuns.ExecuteAsync(host, p, async runId =>
        {
            await CacheRuns.UntilCompletedAsync(host, runId, 500);
            redis.Kill();
            killedAt = DateTime.UtcNow;
        });

        var endedAt = DateTimeOffset.FromUnixTimeMilliseconds(run.EndedUtcMs!.Value).UtcDateTime;
        Assert.True(endedAt - killedAt < TimeSpan.FromSeconds(15), $"ended {(endedAt - killedAt).TotalSeconds:N1} s after the kill");
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("The cache server gave no answer", run.Error);
        Assert.True(samples.Count(s => s.Error == ErrorKind.None) >= 500);
        // Operations under way when it died lost their connection; those started after found none (FailFast).
        Assert.Contains(samples, s => s.Error == ErrorKind.ConnectionRefused);
        Assert.Contains(Json.Deserialize<RunNotes>(run.NotesJson!).Notes, n => n.StartsWith("Cleanup failed", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AServerThatComesBackWithinTheTimeoutIsReconnectedAndTheFailedOperationsAreCounted()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var p = CacheRuns.Redis("restarted") with { Requests = 30_000, Phases = [CachePhase.Write], TimeoutMs = 10_000 };
        var (run, samples) = await CacheRuns.ExecuteAsync(host, p, async runId =>
        {
            await CacheRuns.UntilCompletedAsync(host, runId, 500);
            await redis.RestartAsync();
        });

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(30_000, samples.Count); // every operation is accounted for, failed ones included
        var failed = samples.Where(s => s.Error != ErrorKind.None).ToList();
        Assert.NotEmpty(failed);
        Assert.True(failed.Count < 100, $"{failed.Count} failed: a reconnect should cost a few operations, not a flood");
        Assert.All(failed, s => Assert.True(s.Error is ErrorKind.ConnectionReset or ErrorKind.ConnectionRefused or ErrorKind.Timeout, s.Error.ToString()));
        Assert.Contains(samples.SkipWhile(s => s.Error == ErrorKind.None).SkipWhile(s => s.Error != ErrorKind.None), s => s.Error == ErrorKind.None);
    }

    [Fact]
    public async Task AServerThatHangsEndsTheRunWithinAFewTimeoutsNotAfterEveryOperationTimedOut()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var p = CacheRuns.Redis("hung") with { Requests = null, DurationSeconds = 120, Phases = [CachePhase.Write], TimeoutMs = 500, Concurrency = 4 };
        var pausedAt = DateTime.MinValue;
        var (run, samples) = await CacheRuns.ExecuteAsync(host, p, async runId =>
        {
            await CacheRuns.UntilCompletedAsync(host, runId, 500);
            redis.Pause();
            pausedAt = DateTime.UtcNow;
        });

        var endedAt = DateTimeOffset.FromUnixTimeMilliseconds(run.EndedUtcMs!.Value).UtcDateTime;
        Assert.True(endedAt - pausedAt < TimeSpan.FromSeconds(20), $"ended {(endedAt - pausedAt).TotalSeconds:N1} s after the pause");
        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("The cache server gave no answer", run.Error);
        Assert.Contains(samples, s => s.Error == ErrorKind.Timeout);
        Assert.True(samples.Count(s => s.Error == ErrorKind.None) >= 500);
    }

    [Fact]
    public async Task CancellingARunStillDeletesItsKeys()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var p = CacheRuns.Redis("cancelled") with { Requests = 400_000, KeyCount = 300, Phases = [CachePhase.Write, CachePhase.ReadMiss] };
        var (run, samples) = await CacheRuns.ExecuteAsync(host, p, async runId =>
        {
            await CacheRuns.UntilCompletedAsync(host, runId, 1000);
            Assert.Equal(CancelOutcome.CancelRequested, await host.WithQueueAsync(queue => queue.CancelAsync(runId, default)));
        });

        Assert.Equal(RunStatus.Cancelled, run.Status);
        Assert.True(samples.Count >= 1000);
        using var admin = await ConnectionMultiplexer.ConnectAsync(redis.ConnectionString);
        Assert.Empty(admin.GetServer(admin.GetEndPoints()[0]).Keys(pattern: "cancelled:*"));
        Assert.Contains(Json.Deserialize<RunNotes>(run.NotesJson!).Notes, n => n.StartsWith("Cleanup: deleted 300 keys", StringComparison.Ordinal));
    }

    [Fact]
    public async Task InDurationModeEachPhaseRunsForItsDuration()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        var (run, samples) = await CacheRuns.ExecuteAsync(host,
            CacheRuns.Redis("duration") with { Requests = null, DurationSeconds = 1, KeyCount = 10, Phases = [CachePhase.Write, CachePhase.ReadMiss], Concurrency = 2 });

        Assert.Equal(RunStatus.Completed, run.Status);
        var phases = SeriesStatistics.From(samples);
        Assert.Equal(["write", "read-miss"], phases.Select(p => p.Name));
        Assert.All(phases, p => Assert.InRange(p.Statistics.ElapsedNs, 900_000_000L, 3_000_000_000L));
        Assert.Equal(phases[1].Statistics.Count, phases[1].Misses);
        Assert.Equal(Enumerable.Range(0, samples.Count), samples.Select(s => s.Index));
    }

    [Fact]
    public void PasswordsAreRedactedFromMessages() =>
        Assert.Equal("auth failed for ***@host (password=***)", Runner.Cache.RedisCacheClient.Redact("auth failed for s3cr3t@host (password=s3cr3t)", "s3cr3t"));

    [Fact]
    public async Task AServerThatCannotBeReachedFailsTheRunWithAReasonAndNoPassword()
    {
        await using var redis = await RedisServer.StartAsync("--requirepass", "the-right-one");
        await using var host = await CacheRuns.HostAsync($"{redis.ConnectionString},password=wrong-s3cret,connectTimeout=2000");
        var (run, samples) = await CacheRuns.ExecuteAsync(host, CacheRuns.Redis("denied"));

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("Could not connect to the cache server of connection 'test'", run.Error);
        Assert.Empty(samples);
        Assert.DoesNotContain("wrong-s3cret", run.Error + run.NotesJson + run.ParametersJson);
    }
}
