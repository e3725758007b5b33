using BenchDashboard.Processing.Executing;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Tests.Execution;

public sealed class BackgroundThreadTests
{
    /// <summary>The calling thread's nice value as the kernel reports it: field 19 of its stat, after the parenthesised name.</summary>
    static int OwnNice()
    {
        var stat = File.ReadAllText("/proc/thread-self/stat");
        return int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[16]);
    }

    [Fact]
    public async Task WorkRunsOnOneThreadOfItsOwnInTheOrderGiven()
    {
        using var background = new BackgroundThread("test storing", nice: 0);
        var order = new List<int>();
        var threads = new HashSet<int>();
        var done = Enumerable.Range(0, 200).Select(i => background.Run(() =>
        {
            order.Add(i);
            threads.Add(Environment.CurrentManagedThreadId);
        })).ToArray();
        await Task.WhenAll(done);
        Assert.Equal(Enumerable.Range(0, 200), order);
        var only = Assert.Single(threads);
        Assert.NotEqual(Environment.CurrentManagedThreadId, only);
    }

    [Fact]
    public async Task AFailureReachesItsCallerAndTheThreadGoesOn()
    {
        using var background = new BackgroundThread("test storing", nice: 0);
        var failed = background.Run(() => throw new IOException("disk full"));
        var after = background.Run(() => 42);
        Assert.Equal("disk full", (await Assert.ThrowsAsync<IOException>(() => failed)).Message);
        Assert.Equal(42, await after);
    }

    [Fact]
    public async Task TheCallersContinuationDoesNotRunOnTheBackgroundThread()
    {
        using var background = new BackgroundThread("test storing", nice: 0);
        // A synchronous continuation, registered before the work can complete (the gate holds the thread): it runs
        // where the completion puts it, not on xunit's context, which an await would go back to whatever happened.
        using var gate = new ManualResetEventSlim();
        _ = background.Run(gate.Wait);
        var work = background.Run(() => Environment.CurrentManagedThreadId);
        var continued = work.ContinueWith(t => (Inside: t.Result, On: Environment.CurrentManagedThreadId), TaskContinuationOptions.ExecuteSynchronously);
        gate.Set();
        var (inside, on) = await continued;
        Assert.NotEqual(inside, on);
    }

    [Fact]
    public void DisposingRunsWhatWasGivenBefore()
    {
        var ran = 0;
        var background = new BackgroundThread("test storing", nice: 0);
        for (var i = 0; i < 50; i++) background.Run(() => { Thread.Sleep(1); Interlocked.Increment(ref ran); });
        background.Dispose();
        Assert.Equal(50, ran);
    }

    [Fact]
    public async Task ItRunsAtTheNiceValueGivenAndItsCreatorKeepsItsOwn()
    {
        var before = OwnNice();
        using var background = new BackgroundThread("test storing", nice: 12);
        using var lowered = new ManualResetEventSlim();
        var inside = background.Run(() =>
        {
            var nice = OwnNice();
            lowered.Set();
            return nice;
        });
        Assert.True(lowered.Wait(TimeSpan.FromSeconds(30)));
        Assert.Equal(before, OwnNice()); // still the creating thread: nothing was awaited yet
        Assert.Equal(12, await inside);
    }
}
