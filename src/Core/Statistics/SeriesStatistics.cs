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
        var table = SampleTable.Of(samples);
        return From(table, table.AllRows());
    }

    /// <summary>As <see cref="From(IReadOnlyList{Sample})"/>, over the rows <paramref name="rows"/> of a table.</summary>
    public static IReadOnlyList<SeriesStatistics> From(SampleTable t, int[] rows) => From(t, RowsBySeries(t, rows));

    /// <param name="bySeries">Each series' rows in index order, the series in the order they began (<see cref="RowsBySeries"/>).</param>
    internal static IReadOnlyList<SeriesStatistics> From(SampleTable t, IReadOnlyList<(string Name, int[] Rows)> bySeries)
    {
        var measuredBySeries = bySeries.Select(g => (g.Name, Measured: SampleTable.Where(g.Rows, r => !t.IsWarmup(r)))).ToList();
        var turns = TurnsTaken(t, measuredBySeries);
        return bySeries.Select((g, i) =>
        {
            var measured = measuredBySeries[i].Measured;
            var tookTurnsWith = turns.GetValueOrDefault(g.Name);
            long? busy = null;
            if (tookTurnsWith is not null && measured.Length > 0)
            {
                long sum = 0;
                var connections = new HashSet<int>();
                foreach (var r in measured)
                {
                    sum += t.LatencyNs(r) - (t.LagNs(r) ?? 0);
                    connections.Add(t.Connection(r));
                }
                busy = sum / Math.Max(1, connections.Count);
            }
            int hits = 0, misses = 0;
            foreach (var r in measured)
                if (t.Hit(r) is { } hit) { if (hit) hits++; else misses++; }
            return new SeriesStatistics(g.Name, RunStatistics.From(t, g.Rows, busy), hits, misses, tookTurnsWith);
        }).ToList();
    }

    /// <summary>
    /// The rows of each series, in index order (a stable sort, as ordering the samples was), the series in the order
    /// their first sample by index came; rows without a series are left out.
    /// </summary>
    internal static IReadOnlyList<(string Name, int[] Rows)> RowsBySeries(SampleTable t, int[] rows)
    {
        var counts = new int[t.SeriesNames.Count];
        foreach (var r in rows) if (t.SeriesId(r) is var id and >= 0) counts[id]++;
        var groups = counts.Select(c => new int[c]).ToArray();
        var filled = new int[counts.Length];
        var firstSeen = new List<int>(); // ids in the order first met in rows, as grouping does
        foreach (var r in rows)
        {
            if (t.SeriesId(r) is not (var id and >= 0)) continue;
            if (filled[id] == 0) firstSeen.Add(id);
            groups[id][filled[id]++] = r;
        }
        return firstSeen
            .Select(id => (Name: t.SeriesNames[id], Rows: t.ByIndex(groups[id])))
            .OrderBy(g => t.Index(g.Rows[0]))
            .ToList();
    }

    /// <summary>
    /// Which series took turns: two that overlap in time by more than half of the shorter's span. Phases that
    /// ran one after another touch only at their edges (concurrent workers finishing).
    /// </summary>
    static Dictionary<string, IReadOnlyList<string>> TurnsTaken(SampleTable t, List<(string Name, int[] Measured)> series)
    {
        var spans = series.Where(s => s.Measured.Length > 0)
            .Select(s => (s.Name, From: s.Measured.Min(t.OffsetNs), To: s.Measured.Max(r => t.OffsetNs(r) + t.LatencyNs(r)))).ToList();
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
