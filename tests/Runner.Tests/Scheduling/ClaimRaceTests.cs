using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>
/// Four runners' claimers racing on one database, as four runner processes on several machines would: every run is
/// claimed exactly once and Runner:MaxParallelRuns holds across all of them (on PostgreSQL too, where UPDATEs run
/// side by side and only the claim's advisory lock makes the count hold).
/// </summary>
public sealed class ClaimRaceTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    /// <summary>
    /// Another runner finishing its run holds SQLite's write lock while it writes the run's end: a claim let in by that
    /// finish must not start before it ended, or two runs overlap although the limit held.
    /// </summary>
    [Fact]
    public async Task AClaimThatWaitedForTheWriteLockStartsAfterTheWriterCommitted()
    {
        await using var host = await RunnerHost.CreateAsync();
        await host.WithDbAsync(async db =>
        {
            db.Runs.Add(new Run { Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Queued, QueuedUtcMs = 1 });
            return await db.SaveChangesAsync();
        });
        await using var writer = new SqliteConnection($"Data Source={host.DatabasePath}");
        await writer.OpenAsync();
        var holding = (SqliteTransaction)await writer.BeginTransactionAsync(); // BEGIN IMMEDIATE: the write lock

        // On a thread of its own: Microsoft.Data.Sqlite's asynchronous calls block their caller while SQLite is busy.
        var store = host.Services.GetRequiredService<RunStore>();
        var claim = Task.Run(() => store.TryClaimAsync(CancellationToken.None));
        await Task.Delay(300);
        var released = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        await holding.CommitAsync();
        var run = await claim;

        Assert.NotNull(run);
        Assert.True(run.StartedUtcMs >= released, $"the claim started {released - run.StartedUtcMs} ms before the lock it waited for was released");
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task RacingClaimersClaimEachRunOnceAndNeverExceedTheParallelLimit(string provider)
    {
        const int Runs = 40, Limit = 2;
        var limit = new Dictionary<string, string?> { ["Runner:MaxParallelRuns"] = Limit.ToString() };
        await using var first = await RunnerHost.CreateAsync(limit, provider: provider);
        var hosts = new List<RunnerHost> { first };
        for (var i = 1; i < 4; i++) hosts.Add(await RunnerHost.CreateAsync(new(first.DatabaseSettings) { ["Runner:MaxParallelRuns"] = Limit.ToString() }));
        try
        {
            await first.WithDbAsync(async db =>
            {
                for (var i = 0; i < Runs; i++)
                    db.Runs.Add(new Run { Kind = HttpKind.KindName, ParametersJson = "{}", Status = RunStatus.Queued, QueuedUtcMs = i });
                return await db.SaveChangesAsync();
            });
            var claimedBy = new System.Collections.Concurrent.ConcurrentBag<(long Run, string Runner)>();
            var mostRunning = 0;

            // Each host runs two claimers: claim, look at how many run, finish soon after, again until none is left.
            // A claimer pauses a random moment after a miss and after a release, as a real runner's poll does: one
            // that re-claimed at once would win every slot it just freed and leave no race to test.
            await Task.WhenAll(hosts.SelectMany(h => Enumerable.Range(0, 2).Select(_ => Task.Run(async () =>
            {
                var store = h.Services.GetRequiredService<RunStore>();
                while (await first.WithDbAsync(db => db.Runs.AnyAsync(r => r.Status == RunStatus.Queued)))
                {
                    if (await store.TryClaimAsync(CancellationToken.None) is not { } run)
                    {
                        await Task.Delay(Random.Shared.Next(1, 10));
                        continue;
                    }
                    claimedBy.Add((run.Id, store.RunnerName));
                    var running = await first.WithDbAsync(db => db.Runs.CountAsync(r => r.Status == RunStatus.Running));
                    InterlockedMax(ref mostRunning, running);
                    await Task.Delay(10);
                    await store.FinishAsync(run.Id, RunStatus.Completed, 0, null, null, null, null, CancellationToken.None);
                    store.Released(run.Id);
                    await Task.Delay(Random.Shared.Next(1, 15));
                }
            }))));

            Assert.Equal(Runs, claimedBy.Count);
            Assert.Equal(Runs, claimedBy.Select(c => c.Run).Distinct().Count());
            Assert.True(mostRunning <= Limit, $"{mostRunning} runs were running at once; the limit is {Limit}");
            Assert.True(claimedBy.Select(c => c.Runner).Distinct().Count() > 1, "one runner claimed every run: no race was tested");
        }
        finally
        {
            foreach (var host in hosts.Skip(1)) await host.DisposeAsync();
        }
    }

    static void InterlockedMax(ref int target, int value)
    {
        int current;
        while ((current = Volatile.Read(ref target)) < value && Interlocked.CompareExchange(ref target, value, current) != current) { }
    }
}
