using BenchDashboard.Runner.Http.Lean;

namespace BenchDashboard.Runner.Tests.Http;

/// <summary>
/// The turn the lean engine's connections wait for between an answer and their next request: every waiter continues,
/// each wake runs each waiter once (one that waits again runs on the next wake), and nothing waits forever once the
/// turn is disposed. Whether answers that arrive together are all timed first is the bench's to show
/// (bench/server-time.sh): these test processes run socket continuations on the thread pool.
/// </summary>
public sealed class BatchTurnTests
{
    static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task EveryWaiterFromManyThreadsContinues()
    {
        using var turn = new BatchTurn();
        var continued = 0;

        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
        {
            for (var i = 0; i < 500; i++)
            {
                await turn.Next();
                Interlocked.Increment(ref continued);
            }
        }))).WaitAsync(Bound);

        Assert.Equal(8 * 500, continued);
    }

    [Fact]
    public async Task AWaiterThatWaitsAgainRunsOnTheNextWakeNotThisOne()
    {
        using var turn = new BatchTurn();
        var counts = new int[2];
        int? lead = null; // the first waiter's lead once both have run: it had wakes alone until the second one first waited
        var widest = 0;
        var gate = new Lock();

        async Task WaitRepeatedly(int me)
        {
            for (var i = 0; i < 300; i++)
            {
                await turn.Next();
                lock (gate)
                {
                    counts[me]++;
                    if (counts[0] is 0 or 300 || counts[1] is 0 or 300) continue; // while both are waiting
                    lead ??= counts[0] - counts[1];
                    widest = Math.Max(widest, Math.Abs(counts[0] - counts[1] - lead.Value));
                }
            }
        }

        // The second starts waiting a moment after the first, which on a busy machine (the test's thread put off) had
        // over a hundred wakes alone (and the second has as many alone at the end): what is compared is how the lead
        // moves while both wait.
        await Task.WhenAll(WaitRepeatedly(0), WaitRepeatedly(1)).WaitAsync(Bound);

        // Both wait on every wake, so neither gets further ahead of the other than the one wake it started in.
        Assert.Equal([300, 300], counts);
        Assert.InRange(widest, 0, 1);
    }

    [Fact]
    public async Task AfterItIsDisposedAWaiterContinuesAtOnce()
    {
        var turn = new BatchTurn();
        await turn.Next().WaitAsync(Bound);
        turn.Dispose();

        await turn.Next().WaitAsync(Bound);
        await Task.Run(async () => await turn.Next()).WaitAsync(Bound);
    }
}

static class BatchTurnWaiting
{
    /// <summary>The turn's awaitable as a task, so a test can bound how long it waits.</summary>
    public static async Task WaitAsync(this BatchTurn.Awaitable next, TimeSpan bound) => await AsTask(next).WaitAsync(bound);

    static async Task AsTask(BatchTurn.Awaitable next) => await next;
}
