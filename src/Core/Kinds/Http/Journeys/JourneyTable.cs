using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Kinds.Http.Journeys;

/// <summary>
/// One row of a journey's answer: a step (or the whole iteration, the last row), how often it ran, its errors and
/// among them its failed checks, its percentiles, and its share of the iteration's time (its latencies' sum over
/// the iterations'; null on the iteration's own row).
/// </summary>
public sealed record JourneyRow(string? Variant, string Step, bool IsIteration, int Count, int Errors, int FailedChecks,
    long? P50Ns, long? P90Ns, long? P99Ns, double? Share);

/// <summary>
/// The journey answer: a row per step in the journey's order, then the iteration (whose latency leaves think time
/// out), per variant or agent. Pure: built from the run's series statistics.
/// </summary>
public sealed record JourneyTable(IReadOnlyList<JourneyRow> Rows)
{
    /// <param name="series">The run's series: "login", or with a prefix per variant or agent ("A/login", "cfg0/login", "cfg0/A/login").</param>
    public static JourneyTable? From(HttpParameters p, IReadOnlyList<SeriesStatistics> series)
    {
        if (!p.IsJourney) return null;
        var byName = series.ToDictionary(s => s.Name);
        var variants = p.Resolved().ToDictionary(v => v.Name, v => v.Parameters.Steps ?? []);
        const string iteration = "/" + JourneyValidator.IterationSeries;
        // Each measured iteration series names a group of rows; a run that measured nothing shows its planned groups, empty.
        var prefixes = series.Select(s => s.Name).Where(n => n == JourneyValidator.IterationSeries || n.EndsWith(iteration, StringComparison.Ordinal))
            .Select(n => n == JourneyValidator.IterationSeries ? null : n[..^iteration.Length]).Distinct().ToList();
        if (prefixes.Count == 0) prefixes = p.Variants is { Count: > 0 } ? [.. variants.Keys] : [null];
        var rows = new List<JourneyRow>();
        foreach (var prefix in prefixes)
        {
            var last = prefix?[(prefix.LastIndexOf('/') + 1)..];
            var steps = last is not null && variants.TryGetValue(last, out var own) ? own : p.Steps!;
            var it = byName.GetValueOrDefault(Journey.SeriesOf(prefix, JourneyValidator.IterationSeries))?.Statistics;
            var iterationSum = it?.Latency is { } l ? l.MeanNs * l.Count : 0;
            foreach (var step in steps)
            {
                var s = byName.GetValueOrDefault(Journey.SeriesOf(prefix, step.Name))?.Statistics;
                double? share = s?.Latency is { } sl && iterationSum > 0 ? sl.MeanNs * sl.Count / iterationSum : null;
                rows.Add(Row(prefix, step.Name, false, s, share));
            }
            rows.Add(Row(prefix, JourneyValidator.IterationSeries, true, it, null));
        }
        return new JourneyTable(rows);
    }

    static JourneyRow Row(string? variant, string step, bool isIteration, RunStatistics? s, double? share) =>
        new(variant, step, isIteration, s?.Count ?? 0, s?.Errors ?? 0, s?.ErrorsByKind.GetValueOrDefault(ErrorKind.CheckFailed) ?? 0,
            s?.Latency?.P50Ns, s?.Latency?.P90Ns, s?.Latency?.P99Ns, share);
}

/// <summary>The journey answer as the rows a run's Markdown and text lead with.</summary>
public static class JourneyAnswer
{
    public static IReadOnlyList<Reports.AnswerTable> Of(JourneyTable? table)
    {
        if (table is null || table.Rows.Count == 0) return [];
        var variants = table.Rows.Any(r => r.Variant is not null);
        var rows = table.Rows.Select(r => (IReadOnlyList<string>)
        [
            .. variants ? [r.Variant ?? ""] : Array.Empty<string>(),
            r.Step, N(r.Count), N(r.Errors), N(r.FailedChecks), Ms(r.P50Ns), Ms(r.P90Ns), Ms(r.P99Ns),
            r.IsIteration ? "100 %" : r.Share is { } share ? (share * 100).ToString("F1", System.Globalization.CultureInfo.InvariantCulture) + " %" : "–",
        ]).ToList();
        return
        [
            new Reports.AnswerTable("Per step (ms), the whole iteration last",
                [.. variants ? ["Variant or agent"] : Array.Empty<string>(), "Step", "Count", "Errors", "Failed checks", "p50", "p90", "p99", "Share"], rows,
                "Each step's latency is its request's, from send to the last byte of the answer; the iteration's is its steps' and the work between them, " +
                "never its think time. Share: the step's latencies over the iterations'. A step that fails ends its iteration."),
        ];
    }

    static string N(int n) => n.ToString("N0", System.Globalization.CultureInfo.InvariantCulture);
    static string Ms(long? ns) => ns is { } v ? (v / 1e6).ToString("F3", System.Globalization.CultureInfo.InvariantCulture) : "–";
}
