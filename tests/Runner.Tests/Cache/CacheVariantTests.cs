using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Cache;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Runner.Tests.Execution;
using BenchDashboard.TestSupport;
using StackExchange.Redis;

namespace BenchDashboard.Runner.Tests.Cache;

/// <summary>Cache variants: in every phase the variants take turns, each on a client and keys of its own.</summary>
public sealed class CacheVariantTests
{
    [Fact]
    public async Task VariantsTakeTurnsInEveryPhaseWithTheirOwnServerKeysAndValues()
    {
        await using var redis = await RedisServer.StartAsync();
        await using var host = await CacheRuns.HostAsync(redis.ConnectionString);
        // A is redis with 16 B values, B the same server with 1 KiB values, C in memory: three clients.
        var (run, samples) = await CacheRuns.ExecuteAsync(host, CacheRuns.Redis("variants") with
        {
            Requests = 30, KeyCount = 10, Phases = [CachePhase.Write, CachePhase.ReadDistinct, CachePhase.ReadMiss],
            Variants = [new CacheVariant(), new CacheVariant { ValueBytes = 1024 }, new CacheVariant { Name = "mem", Backend = CacheBackend.Memory }],
        });

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal(Enumerable.Range(0, 270), samples.Select(s => s.Index));
        var expected = new[] { "write", "read-distinct", "read-miss" }.SelectMany(phase => new[] { "A", "B", "mem" }.Select(v => $"{v}/{phase}")).ToList();
        Assert.Equal(expected.Order(), samples.Select(s => s.Series).Distinct().Order());
        // Within a phase, rounds of one of each, each round from its drawn leader on (its rounds count from 0).
        var phases = new[] { "write", "read-distinct", "read-miss" };
        Assert.Equal(phases.SelectMany(phase => TurnOrder.Of(["A", "B", "mem"], Enumerable.Range(0, 30)).Select(v => $"{v}/{phase}")),
            samples.OrderBy(s => s.Index).Select(s => s.Series));
        Assert.All(samples, s => Assert.Equal(ErrorKind.None, s.Error));
        Assert.All(samples.Where(s => s.Series!.EndsWith("/read-distinct")), s => Assert.True(s.Hit));
        Assert.All(samples.Where(s => s.Series!.EndsWith("/read-miss")), s => Assert.False(s.Hit));
        Assert.All(samples.Where(s => s.Series is "B/write" or "B/read-distinct"), s => Assert.Equal(1024, s.Bytes));
        Assert.All(samples.Where(s => s.Series is "A/read-distinct" or "mem/read-distinct"), s => Assert.Equal(16, s.Bytes));

        // Each variant cleaned its own keys: the two redis variants wrote 10 keys each under prefixes of their own.
        var notes = Json.Deserialize<RunNotes>(run.NotesJson!).Notes;
        Assert.Contains(notes, n => n.StartsWith("Variant A: Cleanup: deleted 10 keys", StringComparison.Ordinal));
        Assert.Contains(notes, n => n.StartsWith("Variant B: Cleanup: deleted 10 keys", StringComparison.Ordinal));
        Assert.Contains(notes, n => n.StartsWith("Variant mem: Endpoint: in-process", StringComparison.Ordinal));
        using var admin = await ConnectionMultiplexer.ConnectAsync(redis.ConnectionString);
        Assert.Empty(admin.GetServer(admin.GetEndPoints()[0]).Keys(pattern: "variants:*"));

        // A phase's variants took turns with each other only, so only they pair their turns on the compare page.
        var series = SeriesStatistics.From(samples).ToDictionary(s => s.Name);
        Assert.Equal(["B/write", "mem/write"], series["A/write"].TookTurnsWith!.Order());
        Assert.Equal(["A/read-miss", "B/read-miss"], series["mem/read-miss"].TookTurnsWith!.Order());
    }

    [Fact]
    public async Task BlocksAndTheOpenModelGiveEveryVariantItsShareAndEveryKey()
    {
        await using var host = await CacheRuns.HostAsync(null);
        var (run, samples) = await CacheRuns.ExecuteAsync(host, new CacheParameters
        {
            Requests = 40, KeyCount = 8, Phases = [CachePhase.Write, CachePhase.ReadDistinct], Model = LoadModel.Open, Rate = 2000, Concurrency = 2,
            InterleaveBlock = 4, Variants = [new CacheVariant(), new CacheVariant { ValueBytes = 64 }],
        });

        Assert.Equal(RunStatus.Completed, run.Status);
        Assert.Equal([40, 40, 40, 40], samples.GroupBy(s => s.Series).Select(g => g.Count()));
        // Operations k of each phase are in round k ÷ 8, four of each variant from the round's drawn leader on, as scheduled.
        foreach (var phase in samples.GroupBy(s => s.Series!.Split('/')[1]))
            Assert.Equal(TurnOrder.Of(["A", "B"], Enumerable.Range(0, 10), block: 4), phase.OrderBy(s => s.OffsetNs).Select(s => s.Series!.Split('/')[0]));
        // Every variant's distinct reads found what its writes wrote: all its keys, with its own value size.
        Assert.All(samples.Where(s => s.Series!.EndsWith("/read-distinct")), s => Assert.True(s.Hit));
        Assert.All(samples.Where(s => s.Series == "B/read-distinct"), s => Assert.Equal(64, s.Bytes));
        Assert.Contains(Json.Deserialize<RunNotes>(run.NotesJson!).Notes, n => n.StartsWith("Variant B: Cleanup: deleted 8 keys", StringComparison.Ordinal));
    }
}
