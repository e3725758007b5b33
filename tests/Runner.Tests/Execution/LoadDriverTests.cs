using System.Collections.Concurrent;
using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>The driver on its own, with an operation that only notes what it was given.</summary>
public class LoadDriverTests
{
    /// <summary>Completes at once, or after <paramref name="delay"/>; throws on the operation numbered <paramref name="failAt"/>.</summary>
    /// <param name="meet">The first <paramref name="meet"/> calls wait (10 s at most) until that many are in flight,
    /// so a test of several connections does not pass or fail on whether one worker finished before another began.</param>
    sealed class Noting(TimeSpan? delay = null, long? failAt = null, int meet = 0) : ILoadOperation
    {
        readonly TaskCompletionSource met = new(TaskCreationOptions.RunContinuationsAsynchronously);
        int arrived;

        public ConcurrentQueue<Operation> Seen { get; } = new();

        public async ValueTask<Outcome> OperateAsync(Operation operation, CancellationToken ct)
        {
            var order = Interlocked.Increment(ref arrived);
            if (order == meet) met.TrySetResult();
            if (order < meet) await met.Task.WaitAsync(TimeSpan.FromSeconds(10), ct);
            if (delay is { } d) await Task.Delay(d, ct);
            if (operation.Number == failAt && !operation.IsWarmup) throw new InvalidOperationException("the target is gone");
            Seen.Enqueue(operation);
            return new Outcome { Series = $"v{operation.Variant}" };
        }
    }

    static (RunContext Context, ConcurrentQueue<Sample> Stored) Context()
    {
        var stored = new ConcurrentQueue<Sample>();
        return (new RunContext(new Run { Id = 7, Kind = HttpKind.KindName, ParametersJson = "{}" }, s => { stored.Enqueue(s); return true; }), stored);
    }

    [Fact]
    public async Task AWorkerGoesRoundTheVariantsABlockAtATimeAndEveryVariantGetsEveryNumberOnce()
    {
        var (context, stored) = Context();
        var operation = new Noting();

        await new LoadDriver(context).RunAsync(new HttpParameters { Requests = 6, Concurrency = 1 }, operation, CancellationToken.None, variants: 3, block: 2);

        // Numbers 0 and 1 claimed: a round of two of each variant, led by the one drawn for round 0 (B B C C A A
        // when it is B), then 2 3, then 4 5.
        var seen = operation.Seen.ToList();
        Assert.Equal(TurnOrder.Of([0, 1, 2], Enumerable.Range(0, 3), block: 2), seen.Select(o => o.Variant));
        Assert.Equal([0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 4, 5, 4, 5, 4, 5], seen.Select(o => (int)o.Number));
        Assert.Equal(Enumerable.Range(0, 18), seen.Select(o => o.Index));
        Assert.Equal(18, stored.Count);
        Assert.All(stored, s => Assert.Equal(7, s.RunId));
    }

    [Fact]
    public async Task TheOpenModelTakesTheVariantsByTheSameBlockRuleAndCountsFromTheDueTime()
    {
        var (context, stored) = Context();
        var operation = new Noting();
        var load = new HttpParameters { Model = LoadModel.Open, Rate = 2000, Requests = 8, Concurrency = 2 };

        await new LoadDriver(context).RunAsync(load, operation, CancellationToken.None, variants: 2, block: 2);

        var seen = operation.Seen.OrderBy(o => o.Index).ToList();
        Assert.Equal(8, seen.Count);
        Assert.Equal(TurnOrder.Of([0, 1], Enumerable.Range(0, 2), block: 2), seen.Select(o => o.Variant)); // operation k is in round k ÷ (block × variants)
        Assert.Equal([0, 1, 0, 1, 2, 3, 2, 3], seen.Select(o => (int)o.Number)); // each variant's own numbers, in turn

        Assert.All(seen, o => Assert.NotNull(o.Due));
        Assert.All(stored, s => Assert.True(s.LagNs >= 0 && s.LatencyNs >= s.LagNs));
        Assert.Contains(context.Notes.Notes, n => n.StartsWith("Open model:", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WarmUpComesFirstFlaggedAndNumberingRunsOnAcrossCallsOfOneDriver()
    {
        var (context, stored) = Context();
        var driver = new LoadDriver(context);

        await driver.RunAsync(new HttpParameters { Requests = 5, WarmupRequests = 3, Concurrency = 2 }, new Noting(meet: 2), CancellationToken.None);
        await driver.RunAsync(new HttpParameters { Requests = 4, Concurrency = 2 }, new Noting(), CancellationToken.None);

        var samples = stored.OrderBy(s => s.Index).ToList();
        Assert.Equal(Enumerable.Range(0, 12), samples.Select(s => s.Index));
        Assert.All(samples.Take(3), s => Assert.True(s.IsWarmup));
        Assert.All(samples.Skip(3), s => Assert.False(s.IsWarmup));
        Assert.Equal([0, 1], samples.Select(s => s.Connection).Distinct().Order());
    }

    [Fact]
    public async Task AWorkerThatFailsStopsTheOthersAndTheRunEndsWithItsFailure()
    {
        var (context, _) = Context();
        var operation = new Noting(TimeSpan.FromMilliseconds(2), failAt: 10);
        var elapsed = Stopwatch.StartNew();

        var failure = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            new LoadDriver(context).RunAsync(new HttpParameters { DurationSeconds = 30, Concurrency = 4 }, operation, CancellationToken.None));

        Assert.Equal("the target is gone", failure.Message);
        Assert.True(elapsed.Elapsed < TimeSpan.FromSeconds(20), $"the others went on for {elapsed.Elapsed}");
    }

    [Fact]
    public async Task ACancelEndsTheLoadAsCancelled()
    {
        var (context, stored) = Context();
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            new LoadDriver(context).RunAsync(new HttpParameters { DurationSeconds = 30, Concurrency = 2 }, new Noting(TimeSpan.FromMilliseconds(1)), cancel.Token));

        Assert.NotEmpty(stored);
    }
}
