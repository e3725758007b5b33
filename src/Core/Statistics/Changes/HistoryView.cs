using Perfolizer.Mathematics.OutlierDetection;

namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>A stretch of runs at one level: between two confirmed changes or parameter changes.</summary>
/// <param name="MedianNs">The level: the median of its runs' medians (outlying runs left out); likewise p95 and p99.</param>
public sealed record HistorySegment(long FromRunId, long ToRunId, int Runs, long MedianNs, long P95Ns, long P99Ns, bool AfterParameterChange);

/// <summary>A run far outside its level on <paramref name="Metric"/> (and by more than the margin): shown as an outlier, never as a change.</summary>
public sealed record HistoryOutlier(long RunId, string Metric);

/// <summary>
/// A benchmark's history as the trend shows it, from the runs' figures and their stored judgements: the levels
/// between changes, the confirmed changes, a possible change at the end, outlying runs and parameter changes.
/// Pure: no samples are read (the figures come from each run's stored summary).
/// </summary>
public sealed record HistoryView(
    IReadOnlyList<HistorySegment> Segments, IReadOnlyList<ConfirmedChange> Changes, PendingChange? Pending,
    IReadOnlyList<HistoryOutlier> Outliers, IReadOnlyList<long> ParameterChanges)
{
    /// <summary>A level needs this many runs before a run can stand out of it.</summary>
    const int OutlierMinimum = 5;

    /// <summary>Tukey's "far out" fences: three interquartile ranges beyond the quartiles of the level's log figures.</summary>
    const double FarOut = 3;

    /// <param name="runs">The runs in the history (those with percentiles), oldest first.</param>
    /// <param name="judgements">Each run's stored judgement by id (a run not judged yet is missing).</param>
    /// <param name="margin">A run is an outlier only if it is also this far (a fraction) from its level's median.</param>
    public static HistoryView Of(IReadOnlyList<HistoryRun> runs, IReadOnlyDictionary<long, HistoryJudgement> judgements, double margin = ChangeSettings.DefaultMargin)
    {
        var changes = runs.SelectMany(r => judgements.GetValueOrDefault(r.RunId)?.Confirmed ?? []).ToList();
        var changeStarts = changes.Select(c => c.SinceRunId).ToHashSet();
        var parameterChanges = runs.Where((r, i) => i > 0 && r.Parameters != runs[i - 1].Parameters).Select(r => r.RunId).ToList();
        var pending = runs.Count > 0 ? judgements.GetValueOrDefault(runs[^1].RunId)?.Pending : null;

        var segments = new List<HistorySegment>();
        var outliers = new List<HistoryOutlier>();
        var start = 0;
        for (var i = 1; i <= runs.Count; i++)
        {
            if (i < runs.Count && !changeStarts.Contains(runs[i].RunId) && !parameterChanges.Contains(runs[i].RunId)) continue;
            // Runs of a possible change at the end are that change's, not outliers of the level before it.
            var level = runs.Skip(start).Take(i - start).Where(r => pending is null || r.RunId < pending.SinceRunId).ToList();
            var standing = level.Count >= OutlierMinimum ? Outlying(level, Math.Log(1 + margin)) : [];
            outliers.AddRange(standing);
            var kept = level.Where(r => standing.All(o => o.RunId != r.RunId)).ToList();
            if (kept.Count == 0) kept = runs.Skip(start).Take(i - start).ToList();
            segments.Add(new HistorySegment(runs[start].RunId, runs[i - 1].RunId, i - start,
                Middle(kept, ChangeMetric.Median), Middle(kept, ChangeMetric.P95), Middle(kept, ChangeMetric.P99), parameterChanges.Contains(runs[start].RunId)));
            start = i;
        }
        return new HistoryView(segments, changes, pending, outliers, parameterChanges);
    }

    static List<HistoryOutlier> Outlying(List<HistoryRun> level, double margin)
    {
        var found = new List<HistoryOutlier>();
        foreach (var metric in ChangeMetric.All)
        {
            var values = level.Select(r => Log(r.Of(metric))).ToList();
            var fences = TukeyOutlierDetector.Create(values, FarOut);
            var middle = Log(Middle(level, metric));
            foreach (var run in level)
            {
                var value = Log(run.Of(metric));
                if ((fences.IsUpperOutlier(value) || fences.IsLowerOutlier(value)) && Math.Abs(value - middle) > margin && found.All(o => o.RunId != run.RunId))
                    found.Add(new HistoryOutlier(run.RunId, metric.Name));
            }
        }
        return found;
    }

    static long Middle(List<HistoryRun> runs, ChangeMetric metric)
    {
        var sorted = runs.Select(r => r.Of(metric)).Order().ToList();
        return Percentile.NearestRank(sorted, 500);
    }

    static double Log(long ns) => Math.Log(Math.Max(1, ns));
}
