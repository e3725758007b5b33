using BenchDashboard.Core.Statistics.Changes;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Core.Tests.Statistics.Changes;

public class ChangeRuleTests
{
    static async Task<(IReadOnlyList<HistoryRun> Runs, IReadOnlyList<HistoryJudgement> Judgements)> ReplayAsync(
        ChangeHistoryCase @case, int seed, Func<IReadOnlyList<HistoryRun>, IReadOnlyList<HistoryRun>>? edit = null)
    {
        var (runs, latencies) = @case.Generate(seed);
        runs = edit?.Invoke(runs) ?? runs;
        return (runs, await ChangeRule.ReplayAsync(runs, new ChangeSettings(), id => Task.FromResult<IReadOnlyList<long>>(latencies[id])));
    }

    static List<(int At, ConfirmedChange Change)> Confirmed(IReadOnlyList<HistoryJudgement> judgements) =>
        judgements.SelectMany((j, i) => j.Confirmed.Select(c => (i, c))).ToList();

    [Fact]
    public async Task ADoublingIsPendingThenConfirmedByItsThirdRunAtTheNewLevelAndAnnouncedOnce()
    {
        var (_, judgements) = await ReplayAsync(ChangeHistoryCase.Step(2, 0.05), seed: 1);

        var (at, change) = Assert.Single(Confirmed(judgements));
        Assert.Equal((42, 41L, 43L), (at, change.SinceRunId, change.ConfirmedByRunId)); // run 41 is the first at the new level
        Assert.Equal(ChangeDirection.Regression, change.Evidence.Call);
        Assert.True(judgements[42].Flagged);
        Assert.InRange(1 + change.Evidence.Headline.Change, 1.8, 2.2);
        Assert.All(change.Evidence.Metrics, m => Assert.True(m.Lower > 0.05 && m.SamplesLower > 0.05, $"{m.Metric}: {m.Lower} {m.SamplesLower}"));
        Assert.Equal([41L, 42, 43], change.AfterRunIds);
        Assert.Equal(20, change.BeforeRunIds.Count);
        Assert.Equal((41L, 2), (judgements[40].Pending!.SinceRunId, judgements[40].Pending!.WaitingFor));
        Assert.Equal((41L, 1), (judgements[41].Pending!.SinceRunId, judgements[41].Pending!.WaitingFor));
        Assert.All(judgements.Skip(43), j => Assert.Equal(41L, j.LevelSinceRunId)); // the runs after it are at its level, not new changes
    }

    [Theory]
    [InlineData(0.05)]
    [InlineData(0.2)]
    [InlineData(0.5)]
    public async Task IdenticalRunsAreCalledChangedAtMostOnceIn200Runs(double noise)
    {
        // The evaluation's 30 seeds (bench/change-evaluation.cs): fewer say too little of a rate this low.
        var calls = await Task.WhenAll(Enumerable.Range(1, 30).Select(seed =>
            Task.Run(async () => Confirmed((await ReplayAsync(ChangeHistoryCase.Stationary(noise), seed)).Judgements).Count)));

        Assert.True(calls.Sum() <= 30, $"{calls.Sum()} changes called in 6,000 identical runs at {noise:P0} run-to-run noise");
    }

    [Fact]
    public async Task AtTwentyPercentNoiseADoublingIsConfirmedWithinFourRunsAndATailOnlyDoublingIsFound()
    {
        for (var seed = 1; seed <= 10; seed++)
        {
            var step = Confirmed((await ReplayAsync(ChangeHistoryCase.Step(2, 0.2), seed)).Judgements);
            Assert.Contains(step, c => c.Change.Evidence.Call == ChangeDirection.Regression && c.At is >= 40 and <= 43);

            var tail = Confirmed((await ReplayAsync(ChangeHistoryCase.Tail(0.2), seed)).Judgements).Where(c => c.At >= 40).ToList();
            var found = Assert.Single(tail, c => c.Change.Evidence.Call == ChangeDirection.Regression).Change;
            Assert.Equal(ChangeDirection.Regression, found.Evidence.Metrics.Single(m => m.Metric == "p99").Call);
            Assert.Equal(ChangeDirection.None, found.Evidence.Metrics.Single(m => m.Metric == "median").Call);
        }
    }

    [Fact]
    public async Task ASingleOutlyingRunIsPendingThenAnOutlierNeverAChange()
    {
        var (runs, judgements) = await ReplayAsync(ChangeHistoryCase.Outliers(3, 0.05, every: 25, runs: 40), seed: 2);

        Assert.Empty(Confirmed(judgements));
        Assert.Equal((25L, 2), (judgements[24].Pending!.SinceRunId, judgements[24].Pending!.WaitingFor));
        Assert.Null(judgements[25].Pending); // the next run came back
        var view = HistoryView.Of(runs, runs.Zip(judgements).ToDictionary(x => x.First.RunId, x => x.Second));
        Assert.Equal([25L], view.Outliers.Select(o => o.RunId).Distinct());
        Assert.Single(view.Segments);
    }

    [Fact]
    public async Task ARunWithOtherParametersStartsAHistoryOfItsOwnAndIsNoChange()
    {
        var (runs, judgements) = await ReplayAsync(ChangeHistoryCase.Stationary(0.05, runs: 40), seed: 3,
            edit: runs => runs.Select((r, i) => i < 30 ? r : r with { Parameters = "other", MedianNs = r.MedianNs * 2, P95Ns = r.P95Ns * 2, P99Ns = r.P99Ns * 2 }).ToList());

        Assert.Empty(Confirmed(judgements));
        Assert.True(judgements[30].ParameterChange);
        Assert.Equal(31L, judgements[30].LevelSinceRunId);
        Assert.False(judgements[31].ParameterChange);
        var view = HistoryView.Of(runs, runs.Zip(judgements).ToDictionary(x => x.First.RunId, x => x.Second));
        Assert.Equal([31L], view.ParameterChanges);
        Assert.Equal([(1L, 30L, false), (31L, 40L, true)], view.Segments.Select(s => (s.FromRunId, s.ToRunId, s.AfterParameterChange)));
        Assert.InRange((double)view.Segments[1].MedianNs / view.Segments[0].MedianNs, 1.8, 2.2);
    }

    [Fact]
    public async Task AHalvingIsConfirmedAsAnImprovementWhichIsNotFlagged()
    {
        var (_, judgements) = await ReplayAsync(ChangeHistoryCase.Step(0.5, 0.05), seed: 4);

        var (at, change) = Assert.Single(Confirmed(judgements));
        Assert.Equal(ChangeDirection.Improvement, change.Evidence.Call);
        Assert.False(judgements[at].Flagged);
        Assert.InRange(1 + change.Evidence.Headline.Change, 0.45, 0.55);
    }

    [Fact]
    public async Task WithoutStoredRequestsNoChangeIsConfirmed()
    {
        var (runs, _) = ChangeHistoryCase.Step(2, 0.05).Generate(1);

        var judgements = await ChangeRule.ReplayAsync(runs, new ChangeSettings(), _ => Task.FromResult<IReadOnlyList<long>>([]));

        Assert.Empty(Confirmed(judgements)); // the runs' interval sees it; nothing is called unless the requests agree
        Assert.NotNull(judgements[40].Pending);
    }

    [Fact]
    public async Task AChangeInsideTheMarginIsNotCalledEvenWhenItIsCertain()
    {
        var (runs, latencies) = ChangeHistoryCase.Step(1.04, 0.01).Generate(5);
        var read = (long id) => Task.FromResult<IReadOnlyList<long>>(latencies[id]);

        Assert.Empty(Confirmed(await ChangeRule.ReplayAsync(runs, new ChangeSettings(Margin: 0.05), read)));
        Assert.NotEmpty(Confirmed(await ChangeRule.ReplayAsync(runs, new ChangeSettings(Margin: 0.01), read)));
    }
}
