using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The statistics of one series of a run (a cache phase, a Table variant), in the order the series began.
/// Hits and misses count measured reads that got an answer; a miss is an answer, so it is never among the errors.
/// </summary>
/// <param name="Interleaved">
/// The run's series took turns rather than one after another (Table variants go A B C D A B C D …). Each
/// spans the whole run, so its wall-clock span says nothing about it: its elapsed time is instead the time
/// spent in its own requests (their service time) divided by the workers that sent them, and its rate is measured ÷ that time,
/// i.e. what the series achieves while it has the workers to itself. For series that ran one after another
/// the two definitions agree (the workers were busy with that series the whole time).
/// </param>
public sealed record SeriesStatistics(string Name, RunStatistics Statistics, int Hits, int Misses, bool Interleaved = false)
{
    public static IReadOnlyList<SeriesStatistics> From(IReadOnlyList<Sample> samples)
    {
        var groups = samples.Where(s => s.Series is not null)
            .GroupBy(s => s.Series!)
            .OrderBy(g => g.Min(s => s.Index))
            .Select(g => (Name: g.Key, Samples: g.OrderBy(s => s.Index).ToList()))
            .ToList();
        var interleaved = AreInterleaved(groups.Select(g => g.Samples.Where(s => !s.IsWarmup).ToList()).ToList());
        return groups.Select(g =>
        {
            var measured = g.Samples.Where(s => !s.IsWarmup).ToList();
            long? busy = interleaved && measured.Count > 0
                ? measured.Sum(s => s.LatencyNs - (s.LagNs ?? 0)) / Math.Max(1, measured.Select(s => s.Connection).Distinct().Count())
                : null;
            return new SeriesStatistics(g.Name, RunStatistics.From(g.Samples, busy),
                Hits: measured.Count(s => s.Hit == true), Misses: measured.Count(s => s.Hit == false), interleaved);
        }).ToList();
    }

    /// <summary>
    /// Whether the series took turns: some two of them overlap in time by more than half of the shorter's
    /// span. Phases that ran one after another touch only at their edges (concurrent workers finishing).
    /// </summary>
    static bool AreInterleaved(List<List<Sample>> series)
    {
        var spans = series.Where(s => s.Count > 0)
            .Select(s => (From: s.Min(x => x.OffsetNs), To: s.Max(x => x.OffsetNs + x.LatencyNs))).ToList();
        for (var i = 0; i < spans.Count; i++)
            for (var j = i + 1; j < spans.Count; j++)
            {
                var overlap = Math.Min(spans[i].To, spans[j].To) - Math.Max(spans[i].From, spans[j].From);
                var shorter = Math.Min(spans[i].To - spans[i].From, spans[j].To - spans[j].From);
                if (shorter > 0 && overlap * 2 > shorter) return true;
            }
        return false;
    }
}
