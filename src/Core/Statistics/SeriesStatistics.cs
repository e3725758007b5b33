using BenchDashboard.Core.Runs;

namespace BenchDashboard.Core.Statistics;

/// <summary>
/// The statistics of one series of a run (a cache phase, a Table variant), in the order the series began.
/// Hits and misses count measured reads that got an answer; a miss is an answer, so it is never among the errors.
/// </summary>
/// <param name="TookTurnsWith">
/// The run's other series this one took turns with rather than ran before or after (Table variants go round in
/// rounds, one request each; a cache run's variants take turns within each phase). Only such a pair can be compared by
/// pairing its turns (<see cref="BlockBootstrap"/>).
/// </param>
public sealed record SeriesStatistics(string Name, RunStatistics Statistics, int Hits, int Misses, IReadOnlyList<string>? TookTurnsWith = null)
{
    /// <summary>
    /// The series took turns with another, so it spans that one's time and its wall-clock span says nothing
    /// about it: its elapsed time is instead the time spent in its own requests (their service time) divided by
    /// the workers that sent them, and its rate is measured ÷ that time, i.e. what the series achieves while it
    /// has the workers to itself. For series that ran one after another the two definitions agree (the workers
    /// were busy with that series the whole time).
    /// </summary>
    public bool Interleaved => TookTurnsWith is { Count: > 0 };

    public static IReadOnlyList<SeriesStatistics> From(IReadOnlyList<Sample> samples)
    {
        var groups = samples.Where(s => s.Series is not null)
            .GroupBy(s => s.Series!)
            .OrderBy(g => g.Min(s => s.Index))
            .Select(g => (Name: g.Key, Samples: g.OrderBy(s => s.Index).ToList()))
            .ToList();
        var turns = TurnsTaken(groups.Select(g => (g.Name, g.Samples.Where(s => !s.IsWarmup).ToList())).ToList());
        return groups.Select(g =>
        {
            var measured = g.Samples.Where(s => !s.IsWarmup).ToList();
            var tookTurnsWith = turns.GetValueOrDefault(g.Name);
            long? busy = tookTurnsWith is not null && measured.Count > 0
                ? measured.Sum(s => s.LatencyNs - (s.LagNs ?? 0)) / Math.Max(1, measured.Select(s => s.Connection).Distinct().Count())
                : null;
            return new SeriesStatistics(g.Name, RunStatistics.From(g.Samples, busy),
                Hits: measured.Count(s => s.Hit == true), Misses: measured.Count(s => s.Hit == false), tookTurnsWith);
        }).ToList();
    }

    /// <summary>
    /// Which series took turns: two that overlap in time by more than half of the shorter's span. Phases that
    /// ran one after another touch only at their edges (concurrent workers finishing).
    /// </summary>
    static Dictionary<string, IReadOnlyList<string>> TurnsTaken(List<(string Name, List<Sample> Samples)> series)
    {
        var spans = series.Where(s => s.Samples.Count > 0)
            .Select(s => (s.Name, From: s.Samples.Min(x => x.OffsetNs), To: s.Samples.Max(x => x.OffsetNs + x.LatencyNs))).ToList();
        var turns = new Dictionary<string, List<string>>();
        for (var i = 0; i < spans.Count; i++)
            for (var j = i + 1; j < spans.Count; j++)
            {
                var overlap = Math.Min(spans[i].To, spans[j].To) - Math.Max(spans[i].From, spans[j].From);
                var shorter = Math.Min(spans[i].To - spans[i].From, spans[j].To - spans[j].From);
                if (shorter <= 0 || overlap * 2 <= shorter) continue;
                (turns.TryGetValue(spans[i].Name, out var a) ? a : turns[spans[i].Name] = []).Add(spans[j].Name);
                (turns.TryGetValue(spans[j].Name, out var b) ? b : turns[spans[j].Name] = []).Add(spans[i].Name);
            }
        return turns.ToDictionary(t => t.Key, t => (IReadOnlyList<string>)t.Value);
    }
}
