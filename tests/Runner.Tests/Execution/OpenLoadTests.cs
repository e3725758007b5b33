using System.Collections.Concurrent;
using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;
using BenchDashboard.ServiceDefaults;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>The pacer on its own, with operations that only record when they ran.</summary>
public class OpenLoadTests
{
    static LoadProfile Profile(double rate, int requests) =>
        LoadProfile.Of(new HttpParameters { Model = LoadModel.Open, Rate = rate, Requests = requests })!;

    [Fact]
    public async Task EveryOperationIsStartedInOrderAtOrAfterItsDueTimeWhichComesFromTheSchedule()
    {
        var started = new ConcurrentQueue<(long K, long Due, long Actual)>();
        await OpenLoad.RunAsync(Profile(1000, 300), slots: 4, (slot, k, due) =>
        {
            started.Enqueue((k, due, Stopwatch.GetTimestamp()));
            return Task.CompletedTask;
        }, new OpenLoadMonitor(), CancellationToken.None);

        var all = started.ToList();
        Assert.Equal(Enumerable.Range(0, 300).Select(i => (long)i), all.Select(s => s.K));
        Assert.All(all, s => Assert.True(s.Actual >= s.Due));
        Assert.All(all, s => Assert.Equal(all[0].Due + Ticks.FromNanoseconds(s.K * 1_000_000), s.Due)); // 1 ms apart, exactly
    }

    [Fact]
    public async Task NoMoreThanTheSlotsAreInFlightAndTheWaitIsReportedAsTheTargetFallingBehind()
    {
        var inFlight = 0;
        var most = 0;
        var monitor = new OpenLoadMonitor();
        // 100 /s, but two slots of operations taking 50 ms serve 40 /s: most operations wait for a slot.
        await OpenLoad.RunAsync(Profile(100, 30), slots: 2, async (slot, k, due) =>
        {
            var now = Interlocked.Increment(ref inFlight);
            InterlockedMax(ref most, now);
            await Task.Delay(50);
            Interlocked.Decrement(ref inFlight);
        }, monitor, CancellationToken.None);

        Assert.Equal(2, most);
        var notes = new RunNotes();
        monitor.Report(notes, slots: 2);
        Assert.Contains(notes.Warnings, w => w.StartsWith("The target could not keep up with the schedule: ", StringComparison.Ordinal));
        Assert.DoesNotContain(notes.Warnings, w => w.Contains("generator itself", StringComparison.Ordinal));
    }

    [Fact]
    public void AGeneratorThatFallsBehindWithConnectionsFreeIsReportedAsItsOwnFault()
    {
        // 100 /s for 3 s, every operation started 600 ms late though none waited for a connection.
        var monitor = new OpenLoadMonitor();
        monitor.Started(0);
        for (var k = 0; k < 300; k++)
        {
            var due = Ticks.FromNanoseconds(k * 10_000_000L);
            monitor.Dispatched(due, due + Ticks.FromNanoseconds(600_000_000), heldByTarget: false);
        }

        var notes = new RunNotes();
        monitor.Report(notes, slots: 8);
        Assert.Contains(notes.Warnings, w => w.StartsWith("The generator itself could not keep up in 1 of 4 seconds", StringComparison.Ordinal));
        Assert.DoesNotContain(notes.Warnings, w => w.StartsWith("The target", StringComparison.Ordinal));
        Assert.Contains(notes.Notes, n => n.Contains("600.000 ms late at the median", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AFailureThatIsNotTheTargetsStopsTheScheduleAndIsThrown()
    {
        var calls = 0;
        var failure = await Assert.ThrowsAsync<InvalidOperationException>(() => OpenLoad.RunAsync(Profile(200, 400), slots: 2, (slot, k, due) =>
        {
            Interlocked.Increment(ref calls);
            return k == 5 ? Task.FromException(new InvalidOperationException("refused")) : Task.CompletedTask;
        }, new OpenLoadMonitor(), CancellationToken.None));

        Assert.Equal("refused", failure.Message);
        Assert.InRange(calls, 6, 20); // stopped within a few ticks, not after the 400
    }

    [Fact]
    public async Task ASleepUntilFarAheadWaitsAndCanBeCancelled()
    {
        // Ten minutes ahead: a 64-bit ns × 10⁹ would overflow and return at once, starting an operation early.
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));
        var start = Stopwatch.GetTimestamp();
        Assert.Throws<OperationCanceledException>(() => PreciseSleep.Until(start + Ticks.FromNanoseconds(600_000_000_000), cancel.Token));
        Assert.True(Stopwatch.GetElapsedTime(start) >= TimeSpan.FromMilliseconds(190));

        var soon = Stopwatch.GetTimestamp() + Ticks.FromNanoseconds(2_000_000);
        PreciseSleep.Until(soon, CancellationToken.None);
        Assert.True(Stopwatch.GetTimestamp() >= soon);
    }

    static void InterlockedMax(ref int target, int value)
    {
        int current;
        while ((current = Volatile.Read(ref target)) < value && Interlocked.CompareExchange(ref target, value, current) != current) { }
    }
}
