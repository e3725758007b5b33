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
/// out), per variant. Pure: built from the run's series statistics.
/// </summary>
public sealed record JourneyTable(IReadOnlyList<JourneyRow> Rows)
{
    public static JourneyTable? From(HttpParameters p, IReadOnlyList<SeriesStatistics> series)
    {
        if (!p.IsJourney) return null;
        var byName = series.ToDictionary(s => s.Name);
        IReadOnlyList<(string? Name, HttpParameters Parameters)> variants = p.Variants is { Count: > 0 }
            ? p.Resolved().Select(v => ((string?)v.Name, v.Parameters)).ToList()
            : [(null, p)];
        var rows = new List<JourneyRow>();
        foreach (var (variant, parameters) in variants)
        {
            var iteration = byName.GetValueOrDefault(Journey.SeriesOf(variant, JourneyValidator.IterationSeries))?.Statistics;
            var iterationSum = iteration?.Latency is { } l ? l.MeanNs * l.Count : 0;
            foreach (var step in parameters.Steps ?? [])
            {
                var s = byName.GetValueOrDefault(Journey.SeriesOf(variant, step.Name))?.Statistics;
                double? share = s?.Latency is { } sl && iterationSum > 0 ? sl.MeanNs * sl.Count / iterationSum : null;
                rows.Add(Row(variant, step.Name, false, s, share));
            }
            rows.Add(Row(variant, JourneyValidator.IterationSeries, true, iteration, null));
        }
        return new JourneyTable(rows);
    }

    static JourneyRow Row(string? variant, string step, bool isIteration, RunStatistics? s, double? share) =>
        new(variant, step, isIteration, s?.Count ?? 0, s?.Errors ?? 0, s?.ErrorsByKind.GetValueOrDefault(ErrorKind.CheckFailed) ?? 0,
            s?.Latency?.P50Ns, s?.Latency?.P90Ns, s?.Latency?.P99Ns, share);
}
