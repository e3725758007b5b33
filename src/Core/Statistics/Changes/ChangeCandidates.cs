using Perfolizer.Mathematics.Cpd;

namespace BenchDashboard.Core.Statistics.Changes;

/// <summary>
/// Where a run of runs may have changed level or shape: Perfolizer's ED-PELT (nonparametric, so it sees a change
/// in spread as well as in level) over the log of each run's median, p95 and p99, and over the log of p99 ÷ median
/// (the tail's weight, which moves when the tail changes and the median does not). Nothing here decides that a
/// change happened: each candidate is then tested (<see cref="ChangeTest"/>). RQQ-PELT over the same series made
/// the same calls on the evaluation histories at six times the cost, and at its default sensitivity it put a change
/// point every three or four runs of pure noise (bench/README.md), so it is not used.
/// </summary>
public static class ChangeCandidates
{
    /// <summary>
    /// The indexes in <paramref name="runs"/> of the first run of each new segment, ascending, at least
    /// <paramref name="minimumSegment"/> runs apart and from either end (so a single outlying run is never a segment).
    /// </summary>
    public static IReadOnlyList<int> Find(IReadOnlyList<HistoryRun> runs, int minimumSegment)
    {
        if (runs.Count < 2 * minimumSegment) return [];
        var series = new List<double[]>();
        foreach (var metric in ChangeMetric.All) series.Add(runs.Select(r => Log(r.Of(metric))).ToArray());
        series.Add(runs.Select(r => Log(r.P99Ns) - Log(r.MedianNs)).ToArray());

        var votes = new SortedDictionary<int, int>();
        foreach (var values in series)
        {
            if (values.Distinct().Count() < 2) continue; // a constant series has no change (and ED-PELT's quantiles need spread)
            // A detector returns the last index of each segment but the last; the next run starts the new one.
            foreach (var end in EdPeltChangePointDetector.Instance.GetChangePointIndexes(values, minimumSegment))
                votes[end + 1] = votes.GetValueOrDefault(end + 1) + 1;
        }

        // One change seen in several series may be placed a run or two apart (a noisy tail series a little early):
        // of starts closer than a segment, the one most series agree on stands for all (the earliest on a tie).
        var kept = new List<int>();
        foreach (var cluster in Clusters(votes.Keys.Where(s => s >= minimumSegment && s <= runs.Count - minimumSegment).ToList(), minimumSegment))
            kept.Add(cluster.OrderByDescending(s => votes[s]).ThenBy(s => s).First());
        return kept;
    }

    static IEnumerable<List<int>> Clusters(List<int> starts, int apart)
    {
        var cluster = new List<int>();
        foreach (var start in starts)
        {
            if (cluster.Count > 0 && start - cluster[^1] >= apart)
            {
                yield return cluster;
                cluster = [];
            }
            cluster.Add(start);
        }
        if (cluster.Count > 0) yield return cluster;
    }

    static double Log(long ns) => Math.Log(Math.Max(1, ns));
}
