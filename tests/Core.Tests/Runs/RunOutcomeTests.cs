using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Statistics.Changes;

namespace BenchDashboard.Core.Tests.Runs;

public class RunOutcomeTests
{
    static readonly RunsOptions Options = new();

    static Run Run(RunStatus status, string? error = null) => new() { Kind = "http", ParametersJson = "{}", Status = status, Error = error };

    static RunSummary Summary(int count, int errors, string? topError = null, int? topCount = null) =>
        new(count, errors, count, 1_000_000, 2_000_000, 3_000_000, 1_000_000, SucceededPerSecond: count - errors, TopError: topError, TopErrorCount: topCount ?? errors);

    [Fact]
    public void ACompletedRunWhoseEveryRequestWasRefusedIsRedAndSaysWhy()
    {
        var outcome = RunOutcome.Judge(Run(RunStatus.Completed), Summary(50, 50, "connection refused"), Options);
        Assert.Equal(new RunOutcome(OutcomeLevel.Bad, "errors", "100 % connection refused"), outcome);
    }

    [Theory]
    [InlineData(1000, 0, OutcomeLevel.Good, null)]
    [InlineData(1000, 9, OutcomeLevel.Good, null)] // below 1 %
    [InlineData(1000, 120, OutcomeLevel.Warning, "12.0 % HTTP 503")]
    [InlineData(1000, 500, OutcomeLevel.Bad, "50.0 % HTTP 503")]
    public void ErrorsAboveTheThresholdsTurnACompletedRunAmberThenRed(int count, int errors, OutcomeLevel level, string? reason)
    {
        var outcome = RunOutcome.Judge(Run(RunStatus.Completed), Summary(count, errors, errors > 0 ? "HTTP 503" : null), Options);
        Assert.Equal((level, reason), (outcome.Level, outcome.Reason));
    }

    [Fact]
    public void MixedErrorsNameTheCommonestAndFailedLimitsAndRegressionsAreJudgedToo()
    {
        Assert.Equal("3.0 % errors (mostly timeout)", RunOutcome.Judge(Run(RunStatus.Completed), Summary(1000, 30, "timeout", 20), Options).Reason);

        var limits = new ThresholdResult(false, [new ThresholdCheck("p95Ms", 1, 2, false)]);
        Assert.Equal(new RunOutcome(OutcomeLevel.Bad, "limits failed", "p95 2 ms, limit 1 ms"), RunOutcome.Judge(Run(RunStatus.Completed), Summary(100, 0), Options, limits));

        MetricChange[] metrics =
        [
            new("median", 1_000_000, 1_200_000, 0.2, 0.1, 0.3, ChangeDirection.Regression, 0.12, 0.28),
            new("p95", 2_000_000, 2_020_000, 0.01, -0.1, 0.12, ChangeDirection.None),
            new("p99", 3_000_000, 3_000_000, 0, -0.2, 0.2, ChangeDirection.None),
        ];
        var confirmed = new ConfirmedChange(40, 42, [30, 31], [40, 41, 42], new ChangeEvidence(2, 3, 0.999, 0.95, 0.05, metrics));
        var history = new HistoryJudgement(HistoryJudgement.CurrentVersion, 40, false, [confirmed], null);
        Assert.Equal(new RunOutcome(OutcomeLevel.Warning, "regression", "median 1.20× slower (99.9 % interval 1.10× to 1.30×) since run 40, confirmed by run 42"),
            RunOutcome.Judge(Run(RunStatus.Completed), Summary(100, 0), Options, history: history));
        Assert.Equal(OutcomeLevel.Good, RunOutcome.Judge(Run(RunStatus.Completed), Summary(100, 0), Options,
            history: history with { Confirmed = [confirmed with { Evidence = confirmed.Evidence with { Metrics = [.. metrics.Select(m => m with { Change = -m.Change, Lower = -m.Upper, Upper = -m.Lower, Call = m.Call == ChangeDirection.None ? m.Call : ChangeDirection.Improvement })] } }] }).Level);
    }

    [Fact]
    public void OtherStatusesAreJudgedByTheirOwnReason()
    {
        Assert.Equal(new RunOutcome(OutcomeLevel.Bad, "failed", "Storing samples failed: the database is full."),
            RunOutcome.Judge(Run(RunStatus.Failed, "Storing samples failed: the database is full. 10 samples measured."), null, Options));
        Assert.Equal(OutcomeLevel.Neutral, RunOutcome.Judge(Run(RunStatus.Running), null, Options).Level);
        Assert.Equal(OutcomeLevel.Neutral, RunOutcome.Judge(Run(RunStatus.Cancelled), null, Options).Level);
        Assert.Equal(new RunOutcome(OutcomeLevel.Bad, "nothing measured", "The run completed without a single measured operation."),
            RunOutcome.Judge(Run(RunStatus.Completed), Summary(0, 0), Options));
    }

    [Fact]
    public void TheSummaryNamesAnHttpErrorByItsStatusWhenItIsTheOnlyOne()
    {
        var samples = Enumerable.Range(0, 10).Select(i => new Sample { Index = i, LatencyNs = 1000, StatusCode = 503, Error = ErrorKind.HttpStatus }).ToList();
        var summary = RunSummary.From(RunStatistics.From(samples));
        Assert.Equal(("HTTP 503", 10), (summary.TopError, summary.TopErrorCount));
        Assert.Equal(0, summary.Throughput); // nothing succeeded
    }
}
