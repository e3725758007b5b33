using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// What a verdict needs beyond an item's sorted latencies (<see cref="RunComparison"/>): an interleaved series'
/// latencies in the order they were sent, for the block bootstrap, and the figures of identical earlier runs,
/// for the run-to-run spread a single run is judged against.
/// </summary>
public sealed class VerdictEvidence(BenchDbContext db, RunDigests digests)
{
    /// <summary>The newest identical runs a history is learned from.</summary>
    public const int MaxHistoryRuns = 20;

    /// <summary>The series' measured answered latencies by sample index (the order they were sent).</summary>
    public async Task<IReadOnlyList<long>> OrderedAsync(long runId, string series, LatencyBasis basis, CancellationToken ct)
    {
        var ordered = new List<long>();
        await foreach (var s in RunSamples.StreamSeriesAsync(db, runId, series, ct))
            if (!s.IsWarmup && !s.Error.IsTransportError()) ordered.Add(basis == LatencyBasis.Service ? s.LatencyNs - (s.LagNs ?? 0) : s.LatencyNs);
        return ordered;
    }

    /// <summary>
    /// For each verdict percentile, the figure of each other completed run of the same kind and the very same
    /// parameters (the whole run, or the same series), newest first; <paramref name="compared"/> are left out.
    /// </summary>
    public async Task<IReadOnlyDictionary<int, IReadOnlyList<double>>> HistoryAsync(
        Run run, string? series, LatencyBasis basis, IReadOnlyCollection<long> compared, CancellationToken ct)
    {
        var identical = await db.Runs.AsNoTracking()
            .Where(r => r.Kind == run.Kind && r.ParametersJson == run.ParametersJson && r.Status == RunStatus.Completed && !compared.Contains(r.Id))
            .OrderByDescending(r => r.Id).Take(MaxHistoryRuns).ToListAsync(ct);
        var figures = Verdicts.Metrics.ToDictionary(m => m.Permille, _ => new List<double>());
        foreach (var other in identical)
        {
            var ladder = await LadderAsync(other, series, basis, ct);
            if (ladder is null) continue;
            foreach (var (_, permille) in Verdicts.Metrics) figures[permille].Add(ladder.ValueAt(permille));
        }
        return figures.ToDictionary(f => f.Key, f => (IReadOnlyList<double>)f.Value);
    }

    async Task<LatencyLadder?> LadderAsync(Run run, string? series, LatencyBasis basis, CancellationToken ct)
    {
        var digest = await digests.GetAsync(run, basis, ct);
        return series is null ? digest.Statistics.Latency : digest.Series.FirstOrDefault(s => s.Name == series)?.Statistics.Latency;
    }
}
