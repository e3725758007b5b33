using BenchDashboard.Core;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.TestSupport;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace BenchDashboard.Runner.Tests.Scheduling;

/// <summary>The scheduler stepped through daylight-saving days on a clock the test moves, on a real SQLite file.</summary>
public sealed class CronTimeZoneTests
{
    sealed class ManualTime(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;
        public override DateTimeOffset GetUtcNow() => Now;
    }

    /// <summary>Checks every minute from <paramref name="from"/> to <paramref name="to"/>; returns when runs were queued (UTC).</summary>
    static async Task<List<DateTimeOffset>> QueuedWhileSteppingAsync(string cron, string zone, DateTimeOffset from, DateTimeOffset to)
    {
        await using var host = await RunnerHost.CreateAsync();
        await host.WithDbAsync(async db =>
        {
            db.Benchmarks.Add(new Benchmark
            {
                Name = "nightly", Kind = HttpKind.KindName, CronSchedule = cron, TimeZone = zone,
                CreatedUtcMs = from.ToUnixTimeMilliseconds(), LastScheduledUtcMs = from.ToUnixTimeMilliseconds(),
                ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 1 }),
            });
            return await db.SaveChangesAsync();
        });
        var clock = new ManualTime(from);
        var scheduler = new CronScheduler(host.Services.GetRequiredService<IServiceScopeFactory>(), clock, NullLogger<CronScheduler>.Instance);
        var queuedAt = new List<DateTimeOffset>();
        for (; clock.Now <= to; clock.Now = clock.Now.AddMinutes(1))
            for (var i = await scheduler.EnqueueDueAsync(default); i > 0; i--) queuedAt.Add(clock.Now);
        Assert.Equal(queuedAt.Count, await host.WithDbAsync(db => db.Runs.CountAsync()));
        return queuedAt;
    }

    [Fact]
    public async Task A0230RunInBerlinRunsOnceAt0300OnTheSpringForwardDay()
    {
        var queued = await QueuedWhileSteppingAsync("30 2 * * *", "Europe/Berlin",
            new DateTimeOffset(2026, 3, 28, 0, 0, 0, TimeSpan.Zero), new DateTimeOffset(2026, 3, 30, 12, 0, 0, TimeSpan.Zero));

        Assert.Equal([
            new DateTimeOffset(2026, 3, 28, 1, 30, 0, TimeSpan.Zero), // 02:30 CET
            new DateTimeOffset(2026, 3, 29, 1, 0, 0, TimeSpan.Zero),  // 03:00 CEST: 02:30 did not happen
            new DateTimeOffset(2026, 3, 30, 0, 30, 0, TimeSpan.Zero), // 02:30 CEST
        ], queued);
    }

    [Fact]
    public async Task A0130RunInNewYorkRunsOnceOnTheFallBackDay()
    {
        var queued = await QueuedWhileSteppingAsync("30 1 * * *", "America/New_York",
            new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero), new DateTimeOffset(2026, 11, 1, 23, 0, 0, TimeSpan.Zero));

        Assert.Equal([new DateTimeOffset(2026, 11, 1, 5, 30, 0, TimeSpan.Zero)], queued); // 01:30 EDT; not again at 01:30 EST
    }

    [Fact]
    public async Task AUtcScheduleIsReadInUtc()
    {
        var queued = await QueuedWhileSteppingAsync("30 2 * * *", "UTC",
            new DateTimeOffset(2026, 3, 29, 0, 0, 0, TimeSpan.Zero), new DateTimeOffset(2026, 3, 29, 12, 0, 0, TimeSpan.Zero));

        Assert.Equal([new DateTimeOffset(2026, 3, 29, 2, 30, 0, TimeSpan.Zero)], queued);
    }

    [Fact]
    public async Task AZoneThisMachineDoesNotKnowIsSaidOnceAndQueuesNothing()
    {
        await using var host = await RunnerHost.CreateAsync();
        await host.WithDbAsync(async db =>
        {
            db.Benchmarks.Add(new Benchmark
            {
                Name = "nightly on Mars", Kind = HttpKind.KindName, CronSchedule = "* * * * *", TimeZone = "Mars/Olympus_Mons",
                CreatedUtcMs = 0, ParametersJson = Json.Serialize(new HttpParameters { Url = "http://127.0.0.1:9/", Requests = 1 }),
            });
            return await db.SaveChangesAsync();
        });
        using var logs = new LogCapture();
        using var factory = LoggerFactory.Create(b => b.AddProvider(logs));
        var scheduler = new CronScheduler(host.Services.GetRequiredService<IServiceScopeFactory>(), TimeProvider.System, factory.CreateLogger<CronScheduler>());

        Assert.Equal(0, await scheduler.EnqueueDueAsync(default));
        Assert.Equal(0, await scheduler.EnqueueDueAsync(default));
        var said = Assert.Single(logs.Messages(LogLevel.Warning));
        Assert.Contains("nightly on Mars never fires on this machine: the time zone 'Mars/Olympus_Mons' is not in this machine's time-zone database", said);
        Assert.Equal(0, await host.WithDbAsync(db => db.Runs.CountAsync()));
    }
}
