using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.Cache;

/// <summary>One phase of a cache run: how many operations, how long in all, the median one, and what failed.</summary>
/// <param name="Throttled">Operations the service refused as over its rate limit (seed 004's RESOURCE_EXHAUSTED).</param>
public sealed record CachePhaseCell(int Operations, double Seconds, long? MedianNs, int Errors, int Throttled, int Hits, int Misses);

/// <summary>One variant's phases in the seed's order (null where a phase did not run); <see cref="Variant"/> is null without variants.</summary>
public sealed record CachePhaseRow(string? Variant, IReadOnlyList<CachePhaseCell?> Cells);

/// <summary>
/// The cache answer: writes, reads of one key, reads of different keys and misses side by side, with the
/// total time of each phase (the source document's 216 ms / 213 ms / 386 ms for 100 operations) and the rate-limit
/// errors, so "misses are as fast as hits" or "distinct keys cost twice as much" reads off one row.
/// </summary>
public sealed record CachePhaseTable(IReadOnlyList<CachePhase> Phases, IReadOnlyList<CachePhaseRow> Rows)
{
    public int Throttled => Rows.Sum(r => r.Cells.Sum(c => c?.Throttled ?? 0));
    public int Errors => Rows.Sum(r => r.Cells.Sum(c => c?.Errors ?? 0));

    /// <param name="series">A cache run's series: "write", "read-same", … or, with variants, "A/write", ….</param>
    public static CachePhaseTable From(IReadOnlyList<SeriesStatistics> series)
    {
        var byName = Enum.GetValues<CachePhase>().ToDictionary(p => p.Name());
        var cells = new Dictionary<(string? Variant, CachePhase Phase), CachePhaseCell>();
        var variants = new List<string?>();
        foreach (var s in series)
        {
            var slash = s.Name.LastIndexOf('/');
            string? variant = slash > 0 ? s.Name[..slash] : null;
            if (!byName.TryGetValue(s.Name[(slash + 1)..], out var phase)) continue;
            if (!variants.Contains(variant)) variants.Add(variant);
            var st = s.Statistics;
            cells[(variant, phase)] = new CachePhaseCell(st.Count, st.ElapsedNs / 1e9, st.Latency?.P50Ns, st.Errors,
                st.ErrorsByKind.GetValueOrDefault(ErrorKind.Throttled), s.Hits, s.Misses);
        }
        var phases = Enum.GetValues<CachePhase>().Where(p => variants.Any(v => cells.ContainsKey((v, p)))).ToList();
        var rows = variants.Select(v => new CachePhaseRow(v, phases.Select(p => cells.GetValueOrDefault((v, p))).ToList())).ToList();
        return new CachePhaseTable(phases, rows);
    }
}
