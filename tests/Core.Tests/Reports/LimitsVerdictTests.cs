using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Tests.Reports;

public class LimitsVerdictTests
{
    // 1,000 operations, median 5.786 ms, p95 9 ms.
    static readonly RunSummary Summary = new(1000, 0, 100, 5_786_000, 9_000_000, 10_000_000, 5_786_000);

    static RecordedLimits Recorded(Thresholds limits) => new(limits, RecordedLimits.Judge(limits, RunStatus.Completed, Summary));

    [Fact]
    public void ARunThatPassedWithNoLimitsStaysPassedAndSaysTodaysLimitsWouldFailIt()
    {
        var verdict = LimitsVerdict.Of(Recorded(Thresholds.None), new Thresholds { MaxMedianMs = 1 }, RunStatus.Completed, Summary);

        Assert.Null(verdict.Verdict);
        Assert.True(verdict is { Recorded: true, Changed: true, Today.Passed: false });
        Assert.Equal("today's limits would fail this run (median 5.786 ms, limit 1 ms)", verdict.Remark);
    }

    [Fact]
    public void AVerdictRecordedAsFailedStaysFailedWhenTheLimitIsLoosenedAndSaysTodaysWouldPass()
    {
        var verdict = LimitsVerdict.Of(Recorded(new Thresholds { MaxP95Ms = 5 }), new Thresholds { MaxP95Ms = 50 }, RunStatus.Completed, Summary);

        Assert.False(verdict.Verdict!.Passed);
        Assert.Equal("p95 9 ms, limit 5 ms", ThresholdWords.Failures(verdict.Verdict));
        Assert.Equal("today's limits would pass this run", verdict.Remark);
    }

    [Fact]
    public void ChangingOnlyTheChangeRuleLeavesNothingToSay()
    {
        var verdict = LimitsVerdict.Of(Recorded(new Thresholds { MaxMedianMs = 10 }), new Thresholds { MaxMedianMs = 10, ConfirmRuns = 5 }, RunStatus.Completed, Summary);

        Assert.True(verdict is { Verdict.Passed: true, Changed: false, Remark: null });
    }

    [Fact]
    public void ARunFromBeforeLimitsWereRecordedIsJudgedByTodaysAndSaysSo()
    {
        var verdict = LimitsVerdict.Of(null, new Thresholds { MaxMedianMs = 1, MinRequestsPerSecond = 200 }, RunStatus.Completed, Summary);

        Assert.False(verdict.Verdict!.Passed);
        Assert.False(verdict.Recorded);
        Assert.Equal("limits not recorded when this run ended; judged by today's", verdict.Remark);
        Assert.Equal("median 5.786 ms, limit 1 ms; successful requests per second 100, at least 200", ThresholdWords.Failures(verdict.Verdict));
    }

    [Fact]
    public void LimitsRecordedAsTheRunEndedJudgeItBeforeItsVerdictIsStored()
    {
        var standing = Json.Deserialize<RecordedLimits>(RecordedLimits.Standing(Json.Serialize(new Thresholds { MaxMedianMs = 1 })));

        var verdict = LimitsVerdict.Of(standing, new Thresholds { MaxMedianMs = 1 }, RunStatus.Completed, Summary);

        Assert.Null(standing.Verdict);
        Assert.True(verdict is { Verdict.Passed: false, Recorded: true, Changed: false, Remark: null });
    }

    [Fact]
    public void LimitsRemovedSinceAreSaidAndTheRecordedVerdictStands()
    {
        var verdict = LimitsVerdict.Of(Recorded(new Thresholds { MaxMedianMs = 1 }), Thresholds.None, RunStatus.Completed, Summary);

        Assert.False(verdict.Verdict!.Passed);
        Assert.Equal("the benchmark has no limits today", verdict.Remark);
    }
}
