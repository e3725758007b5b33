using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Statistics.Changes;

namespace BenchDashboard.TestSupport;

/// <summary>
/// What a rule called over one generated history: its false calls (a change before the true one, the wrong way,
/// or a second call of one step) among the runs it judged, and how many runs after the true change its first
/// correct call came (1: the first run at the new level; null: not found).
/// </summary>
public sealed record RuleOutcome(int FalseCalls, int RunsAtRisk, int? Delay);

/// <summary>The change rule and the rule before it (10 % above the median of the previous 10 runs), over the same histories.</summary>
public static class ChangeEvaluation
{
    public static RuleOutcome ChangeRuleOn(ChangeHistoryCase @case, IReadOnlyList<HistoryRun> runs, IReadOnlyDictionary<long, long[]> latencies, ChangeSettings? settings = null)
    {
        var judgements = ChangeRule.ReplayAsync(runs, settings ?? new ChangeSettings(), id => Task.FromResult<IReadOnlyList<long>>(latencies[id])).GetAwaiter().GetResult();
        var calls = judgements.SelectMany((j, i) => j.Confirmed.Select(c => (At: i, c.Evidence.Call))).ToList();
        return Score(@case, calls, runs.Count);
    }

    public static RuleOutcome OldRuleOn(ChangeHistoryCase @case, IReadOnlyList<HistoryRun> runs)
    {
        var summaries = runs.Select(r => new RunSummary(ChangeHistoryCase.RequestsPerRun, 0, 0, r.MedianNs, r.P95Ns, r.P99Ns, null)).ToList();
        var calls = new List<(int, ChangeDirection)>();
        for (var i = 0; i < summaries.Count; i++)
            if (RegressionCheck.Evaluate(summaries[i], RegressionCheck.Previous(summaries, i, 10), 10) is { IsFlagged: true })
                calls.Add((i, ChangeDirection.Regression));
        return Score(@case, calls, runs.Count);
    }

    static RuleOutcome Score(ChangeHistoryCase @case, List<(int At, ChangeDirection Call)> calls, int runs)
    {
        if (@case.ChangeAt is not { } at)
            return new RuleOutcome(calls.Count, runs, null);
        int? delay = null;
        var falseCalls = 0;
        foreach (var (index, call) in calls)
        {
            if (index >= at && call == @case.Truth && (delay is null || @case.Repeats)) delay ??= index - at + 1;
            else falseCalls++;
        }
        return new RuleOutcome(falseCalls, runs, delay);
    }
}
