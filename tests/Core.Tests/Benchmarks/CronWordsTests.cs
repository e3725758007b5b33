using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Tests.Benchmarks;

public sealed class CronWordsTests
{
    [Theory]
    [InlineData("30 2 * * *", "every day at 02:30")]
    [InlineData("0 0 2 * * *", "every day at 02:00")]
    [InlineData("15 0 2 * * *", "every day at 02:00:15")]
    [InlineData("*/15 * * * *", "every 15 minutes")]
    [InlineData("* * * * *", "every minute")]
    [InlineData("0 * * * *", "every hour, on the hour")]
    [InlineData("5 * * * *", "every hour at 5 minutes past")]
    [InlineData("10 */6 * * *", "every 6 hours from 00:10")]
    [InlineData("0 6 * * 1", "every Monday at 06:00")]
    [InlineData("0 6 * * 7", "every Sunday at 06:00")]
    [InlineData("0 6 * * MON", "every Monday at 06:00")]
    [InlineData("0 6 * * 1-5", "every weekday (Monday to Friday) at 06:00")]
    [InlineData("0 6 1 * *", "on the 1st of every month at 06:00")]
    [InlineData("0 6 22 * *", "on the 22nd of every month at 06:00")]
    [InlineData("0 6 13 * *", "on the 13th of every month at 06:00")]
    [InlineData("@daily", "every day at 00:00")]
    public void CommonShapesAreSaidInWords(string cron, string words) => Assert.Equal(words, CronWords.Describe(cron));

    [Theory]
    [InlineData("0 6 1 1 *")] // a month named: shown as the expression
    [InlineData("0 6,18 * * *")]
    [InlineData("*/10 * * * * *")] // more than once a minute: refused anyway
    [InlineData("every night")]
    [InlineData("0 6 1 * 1")] // a day of the month and a weekday: cron's "either", easy to misread in words
    public void OtherShapesHaveNoWordsRatherThanWrongOnes(string cron) => Assert.Null(CronWords.Describe(cron));

    [Fact]
    public void TheNextRunIsTheSchedulersFirstSlotAfterTheLastOneQueuedAndAPastOneIsOverdue()
    {
        var created = new DateTimeOffset(2026, 3, 28, 12, 0, 0, TimeSpan.Zero);
        var b = new Benchmark { Name = "n", Kind = "http", ParametersJson = "{}", CronSchedule = "30 2 * * *", TimeZone = "Europe/Berlin", CreatedUtcMs = created.ToUnixTimeMilliseconds() };

        // Spring forward in Berlin on 29 March 2026: 02:30 does not exist and runs at 03:00 local, 01:00 UTC.
        var t = ScheduleTimes.Of(b, created.AddHours(1));
        Assert.Equal(new DateTimeOffset(2026, 3, 29, 1, 0, 0, TimeSpan.Zero), t.Next);
        Assert.False(t.Overdue);
        Assert.True(ScheduleTimes.Of(b, created.AddDays(2)).Overdue);

        b.LastScheduledUtcMs = new DateTimeOffset(2026, 3, 29, 1, 0, 5, TimeSpan.Zero).ToUnixTimeMilliseconds();
        Assert.Equal(new DateTimeOffset(2026, 3, 30, 0, 30, 0, TimeSpan.Zero), ScheduleTimes.Of(b, created.AddDays(1)).Next); // summer time: UTC+2

        b.Enabled = false;
        Assert.Null(ScheduleTimes.Of(b, created).Next);
    }
}
