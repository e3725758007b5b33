using BenchDashboard.Core.Benchmarks;

namespace BenchDashboard.Core.Tests.Benchmarks;

public class CronSchedulesTests
{
    [Theory]
    [InlineData("*/0 * * * *", "Minutes: Value must be a number between 1 and 59")]
    [InlineData("61 * * * *", "Minutes: Value must be a number between 0 and 59")]
    [InlineData("0 0 * 13 *", "Months")]
    [InlineData("every night", "Enter 5 fields (minute hour day month weekday) or 6 with seconds first")]
    [InlineData("* * * * * * *", "this has 7")]
    [InlineData("* * * * * *", "at most once a minute")]
    [InlineData("0,30 0 2 * * *", "at most once a minute")]
    [InlineData("*/10 5 * * * *", "at most once a minute")]
    public void MalformedSchedulesAreRefusedWithTheReason(string expression, string reason)
    {
        Assert.Null(CronSchedules.Parse(expression, out var error));
        Assert.Contains(reason, error);
    }

    [Fact]
    public void SecondsAreOptional()
    {
        var from = new DateTimeOffset(2026, 6, 1, 12, 0, 0, TimeSpan.Zero);
        Assert.Equal(from.AddMinutes(15), CronSchedules.NextAfter("*/15 * * * *", "UTC", from));
        Assert.Equal(from.AddSeconds(30), CronSchedules.NextAfter("30 * * * * *", "UTC", from));
        Assert.Equal(from.AddHours(12), CronSchedules.NextAfter("@daily", "UTC", from));
        Assert.Equal(from.AddHours(14).AddSeconds(30), CronSchedules.NextAfter("30 0 2 * * *", "UTC", from));
    }

    [Theory]
    [InlineData("UTC", true)]
    [InlineData("Europe/Berlin", true)]
    [InlineData("America/New_York", true)]
    [InlineData("Mars/Olympus_Mons", false)]
    [InlineData("W. Europe Standard Time", false)] // a Windows name: found on Linux through ICU, but not portable
    [InlineData("", false)]
    public void OnlyIanaTimeZonesAreAccepted(string name, bool accepted) =>
        Assert.Equal(accepted, CronSchedules.FindZone(name) is not null);

    [Fact]
    public void ASlotInTheSpringForwardGapRunsOnceWhenTheClockJumps()
    {
        // Europe/Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST (01:00 UTC); 02:30 does not happen that day.
        var before = new DateTimeOffset(2026, 3, 28, 12, 0, 0, TimeSpan.Zero);
        var slot = CronSchedules.NextAfter("30 2 * * *", "Europe/Berlin", before)!.Value;
        Assert.Equal(new DateTimeOffset(2026, 3, 29, 1, 0, 0, TimeSpan.Zero), slot);
        Assert.Equal(new DateTimeOffset(2026, 3, 30, 0, 30, 0, TimeSpan.Zero), CronSchedules.NextAfter("30 2 * * *", "Europe/Berlin", slot));
    }

    [Fact]
    public void ASlotInTheFallBackHourRunsOnceAtItsFirstOccurrence()
    {
        // America/New_York, 1 November 2026: 01:30 happens at 05:30 UTC (EDT) and again at 06:30 UTC (EST).
        var before = new DateTimeOffset(2026, 10, 31, 12, 0, 0, TimeSpan.Zero);
        var slot = CronSchedules.NextAfter("30 1 * * *", "America/New_York", before)!.Value;
        Assert.Equal(new DateTimeOffset(2026, 11, 1, 5, 30, 0, TimeSpan.Zero), slot);
        Assert.Equal(new DateTimeOffset(2026, 11, 2, 6, 30, 0, TimeSpan.Zero), CronSchedules.NextAfter("30 1 * * *", "America/New_York", slot));
    }
}
