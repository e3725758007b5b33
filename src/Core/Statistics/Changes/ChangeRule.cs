using Perfolizer.Mathematics.OutlierDetection;

namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>
/// Judges the newest run of a history: candidates from the detectors over the recent runs (<see cref="ChangeCandidates"/>)
/// and the last runs beyond the current level's fences, each after the current level tested (<see cref="ChangeTest"/>)
/// and confirmed once the new level has <see cref="ChangeSettings.ConfirmRuns"/> runs; or, short of that, a possible
/// change at the end (the last run or few beyond the fences).
/// A change already confirmed by an earlier run is not confirmed again. Pure and deterministic: the same history
/// gives the same judgement.
/// </summary>
public static class ChangeRule
{
    /// <summary>A possible change at the end is judged against at least this many runs of the current level.</summary>
    const int MinimumReference = 5;

    /// <summary>And against at most this many (the level's recent runs).</summary>
    const int ReferenceRuns = 30;

    /// <param name="runs">The benchmark's completed runs, oldest first, ending with the run to judge.</param>
    /// <param name="confirmedSince">The first runs of the changes earlier judgements confirmed.</param>
    /// <param name="latencies">A run's answered latencies, sorted ascending (read only for runs a test compares).</param>
    public static async Task<HistoryJudgement> JudgeAsync(
        IReadOnlyList<HistoryRun> runs, IReadOnlySet<long> confirmedSince, ChangeSettings settings, Func<long, Task<IReadOnlyList<long>>> latencies)
    {
        var last = runs.Count - 1;
        var first = ParametersStart(runs);
        var level = first;
        for (var i = last; i > first; i--)
            if (confirmedSince.Contains(runs[i].RunId)) { level = i; break; }

        var minimum = settings.ConfirmRuns;
        var windowStart = Math.Max(first, runs.Count - ChangeSettings.Window);
        var window = runs.Skip(windowStart).ToList();
        var candidates = ChangeCandidates.Find(window, minimum).Select(c => windowStart + c).Where(c => c >= level + minimum).ToList();
        // Over a short history (a dozen runs) ED-PELT can miss even a doubling that every run since shows, or place
        // it a run or two early: the last runs all beyond the level's fences are a candidate too, and where both
        // point to the same change, the streak says where it starts.
        var streak = Streak(runs, level, settings) is { } tail ? AtNewLevel(tail, runs, level, settings) : null;
        if (streak is { RunsSince: var length } && length >= minimum)
            candidates = [.. candidates.Where(c => Math.Abs(c - (runs.Count - length)) >= minimum).Append(runs.Count - length).Order()];

        var confirmed = new List<ConfirmedChange>();
        for (var k = 0; k < candidates.Count; k++)
        {
            var end = k + 1 < candidates.Count ? candidates[k + 1] : runs.Count;
            var start = FirstAtNewLevel(runs, Math.Max(level, candidates[k] - ChangeSettings.SideRuns), candidates[k], end);
            if (start < level + minimum || end - start < minimum) continue; // too close after a change confirmed just now, or too few runs at the new level yet
            // The level before is every run since the last confirmed change: a candidate that was not confirmed
            // is not a change, and testing against the stretch a detector cut out to contrast would favour one.
            var before = Range(runs, Math.Max(level, start - ChangeSettings.SideRuns), start);
            var after = Range(runs, start, Math.Min(end, start + ChangeSettings.SideRuns));
            if (await ChangeTest.TestAsync(before, after, settings, latencies) is { Call: not ChangeDirection.None } evidence)
            {
                confirmed.Add(new ConfirmedChange(runs[start].RunId, runs[last].RunId, Ids(before), Ids(after), evidence));
                level = start;
            }
        }

        var pending = confirmed.Count == 0 && streak is { WaitingFor: > 0 } ? streak : null;
        return new HistoryJudgement(HistoryJudgement.CurrentVersion, runs[level].RunId, first == last && last > 0, confirmed, pending);
    }

    /// <summary>Judges every run of a history in turn, as if each had just ended (the evaluation and first judgements of an old history).</summary>
    public static async Task<IReadOnlyList<HistoryJudgement>> ReplayAsync(
        IReadOnlyList<HistoryRun> runs, ChangeSettings settings, Func<long, Task<IReadOnlyList<long>>> latencies)
    {
        var judgements = new List<HistoryJudgement>(runs.Count);
        var confirmedSince = new HashSet<long>();
        for (var i = 0; i < runs.Count; i++)
        {
            var judgement = await JudgeAsync(runs.Take(i + 1).ToList(), confirmedSince, settings, latencies);
            foreach (var change in judgement.Confirmed) confirmedSince.Add(change.SinceRunId);
            judgements.Add(judgement);
        }
        return judgements;
    }

    /// <summary>The first run of the newest stretch of runs with the last run's parameters.</summary>
    public static int ParametersStart(IReadOnlyList<HistoryRun> runs)
    {
        var first = runs.Count - 1;
        while (first > 0 && runs[first - 1].Parameters == runs[^1].Parameters) first--;
        return first;
    }

    /// <summary>
    /// The longest run of last runs all beyond Tukey's fences of the current level's runs before them on one
    /// percentile, the same way and by more than the margin: a change that may be starting (waiting for more runs,
    /// fewer than <see cref="ChangeSettings.ConfirmRuns"/>), or one that enough runs show. If the next run comes back,
    /// the run was an outlier.
    /// </summary>
    static PendingChange? Streak(IReadOnlyList<HistoryRun> runs, int level, ChangeSettings settings)
    {
        var margin = Math.Log(1 + settings.Margin);
        PendingChange? longest = null;
        for (var length = 1; runs.Count - length - level >= MinimumReference; length++)
        {
            var tailStart = runs.Count - length;
            var reference = Range(runs, Math.Max(level, tailStart - ReferenceRuns), tailStart);
            var found = ChangeMetric.All.Select(metric =>
            {
                var values = reference.Select(r => Log(r.Of(metric))).ToList();
                var fences = TukeyOutlierDetector.Create(values);
                var middle = values.Order().ElementAt(values.Count / 2);
                var tail = runs.Skip(tailStart).Select(r => Log(r.Of(metric))).ToList();
                var direction = tail.All(v => fences.IsUpperOutlier(v) && v - middle > margin) ? ChangeDirection.Regression
                    : tail.All(v => fences.IsLowerOutlier(v) && middle - v > margin) ? ChangeDirection.Improvement
                    : ChangeDirection.None;
                return (metric, direction);
            }).FirstOrDefault(f => f.direction != ChangeDirection.None);
            if (found.metric is null) break; // a streak runs back from the last run: it ends at the first run that is not beyond
            longest = new PendingChange(runs[tailStart].RunId, length, Math.Max(0, settings.ConfirmRuns - length), found.direction, found.metric.Name);
        }
        return longest;
    }

    /// <summary>
    /// Where the new level really starts: a detector or a streak may take in a run or two of the old level that
    /// happened to lie its way (a busy minute before a deployment). While the first run from <paramref name="start"/>
    /// is nearer the level before than the runs after it, on the percentile that moved most, it belongs before.
    /// </summary>
    static int FirstAtNewLevel(IReadOnlyList<HistoryRun> runs, int from, int start, int end)
    {
        if (start <= from || end - start < 2) return start;
        var metric = ChangeMetric.All.MaxBy(m => Math.Abs(Middle(runs, start, end, m) - Middle(runs, from, start, m)))!;
        var before = Middle(runs, from, start, metric);
        while (end - start >= 2)
        {
            var value = Log(runs[start].Of(metric));
            if (Math.Abs(value - Middle(runs, start + 1, end, metric)) >= Math.Abs(value - before)) start++;
            else break;
        }
        return start;
    }

    /// <summary>The streak from its first run at the new level, waiting for as many more runs as that leaves it short.</summary>
    static PendingChange AtNewLevel(PendingChange streak, IReadOnlyList<HistoryRun> runs, int level, ChangeSettings settings)
    {
        var start = runs.Count - streak.RunsSince;
        var refined = FirstAtNewLevel(runs, Math.Max(level, start - ReferenceRuns), start, runs.Count);
        var length = runs.Count - refined;
        return streak with { SinceRunId = runs[refined].RunId, RunsSince = length, WaitingFor = Math.Max(0, settings.ConfirmRuns - length) };
    }

    static double Middle(IReadOnlyList<HistoryRun> runs, int from, int to, ChangeMetric metric)
    {
        var values = Range(runs, from, to).Select(r => Log(r.Of(metric))).Order().ToList();
        return values.Count % 2 == 1 ? values[values.Count / 2] : (values[values.Count / 2 - 1] + values[values.Count / 2]) / 2;
    }

    static double Log(long ns) => Math.Log(Math.Max(1, ns));

    static List<HistoryRun> Range(IReadOnlyList<HistoryRun> runs, int from, int to) => runs.Skip(from).Take(to - from).ToList();

    static List<long> Ids(List<HistoryRun> runs) => runs.Select(r => r.RunId).ToList();
}
