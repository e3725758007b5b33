using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>
/// Two schedulers on one database, as two dashboards (or runners) on several machines would run them: every slot of
/// every scheduled benchmark is queued exactly once, whichever of them checks first, also when both check at the
/// same moment (on PostgreSQL, where their UPDATEs run side by side).
/// </summary>
public sealed class SharedScheduleTests
{
    public static TheoryProviders Providers => TestDatabase.Providers;

    sealed class ManualTime(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;
        public override DateTimeOffset GetUtcNow() => Now;
    }

    [Theory, MemberData(nameof(Providers))]
    public async Task TwoSchedulersOnOneDatabaseQueueEachSlotOnce(string provider)
    {
        const int Benchmarks = 5, Minutes = 30;
        var start = new DateTimeOffset(2026, 11, 26, 0, 0, 30, TimeSpan.Zero);
        await using var first = await RunnerHost.CreateAsync(provider: provider);
        await using var second = await RunnerHost.CreateAsync(new(first.DatabaseSettings));
        await first.WithDbAsync(async db =>
        {
            for (var i = 0; i < Benchmarks; i++)
                db.Benchmarks.Add(new Benchmark
                {
                    Name = $"every minute {i}", Kind = HttpKind.KindName, CronSchedule = "* * * * *", TimeZone = "UTC",
                    CreatedUtcMs = start.ToUnixTimeMilliseconds(), LastScheduledUtcMs = start.ToUnixTimeMilliseconds(),
                    ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 1 }),
                });
            return await db.SaveChangesAsync();
        });
        // The second machine's clock runs 200 ms behind the first's: both find the same slot due.
        var firstClock = new ManualTime(start);
        var secondClock = new ManualTime(start.AddMilliseconds(-200));
        var schedulers = new[]
        {
            new CronScheduler(first.Services.GetRequiredService<IServiceScopeFactory>(), firstClock, NullLogger<CronScheduler>.Instance),
            new CronScheduler(second.Services.GetRequiredService<IServiceScopeFactory>(), secondClock, NullLogger<CronScheduler>.Instance),
        };
        var queuedBy = new int[2];

        for (var minute = 1; minute <= Minutes; minute++)
        {
            firstClock.Now = start.AddMinutes(minute);
            secondClock.Now = firstClock.Now.AddMilliseconds(-200);
            // Each checks twice at once with the other: a slot one of them took must not be queued again by either.
            var counts = await Task.WhenAll(Enumerable.Range(0, 4).Select(i => Task.Run(() => schedulers[i % 2].EnqueueDueAsync(default))));
            for (var i = 0; i < counts.Length; i++) queuedBy[i % 2] += counts[i];
        }

        // One run per benchmark per minute (a check queues at most one per benchmark): none twice, none missed.
        var runsPerBenchmark = await first.WithDbAsync(db => db.Runs.GroupBy(r => r.BenchmarkId).Select(g => g.Count()).ToListAsync());
        Assert.Equal(Enumerable.Repeat(Minutes, Benchmarks), runsPerBenchmark);
        Assert.Equal(Benchmarks * Minutes, queuedBy.Sum());
        Assert.True(queuedBy.All(q => q > 0), $"one scheduler queued every slot ({queuedBy[0]} and {queuedBy[1]}): no race was tested");
    }
}
