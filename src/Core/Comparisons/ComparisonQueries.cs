using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Comparisons;

/// <summary>Loads the items named by keys ("12", "12/read-miss") and compares them; errors are keyed for the API.</summary>
public sealed class ComparisonQueries(RunQueries runs, RunDigests digests, Security.ParameterDisplay display)
{
    public const int MaxItems = 8;

    /// <summary>Above this many answered requests in all (8 bytes each once decoded), a comparison would hold too much in memory on a small machine.</summary>
    public const int MaxTotalSamples = 5_000_000;

    /// <param name="reveal">An identified administrator: parameters are shown with their secrets.</param>
    /// <param name="basis">What the latencies are in open-model runs: corrected (default) or service time.</param>
    public async Task<(RunComparison? Comparison, Dictionary<string, string[]> Errors)> CompareAsync(
        IReadOnlyList<string> keys, string? baselineKey, int seed, CancellationToken ct, bool reveal = false, LatencyBasis basis = LatencyBasis.Corrected)
    {
        keys = keys.Select(k => k.Trim()).Where(k => k.Length > 0).Distinct().ToList();
        if (keys.Count < 2 || keys.Count > MaxItems)
            return (null, new() { ["items"] = [$"Choose 2 to {MaxItems} runs (or phases of runs) to compare."] });

        var items = new List<ComparedItem>();
        var reports = new Dictionary<long, RunReport>();
        long total = 0;
        foreach (var key in keys)
        {
            if (!ComparedItem.TryParseKey(key, out var runId, out var series))
                return (null, new() { ["items"] = [$"'{key}' is not a run id or run/phase (e.g. 12 or 12/read-miss)."] });
            if (!reports.TryGetValue(runId, out var report))
            {
                if (await runs.ReportAsync(runId, ct, basis) is not { } found) return (null, new() { ["items"] = [$"There is no run {runId}."] });
                reports[runId] = report = found;
            }
            var statistics = series is null ? report.Statistics : report.Series.FirstOrDefault(s => s.Name == series)?.Statistics;
            if (statistics is null) return (null, new() { ["items"] = [$"Run {runId} has no series '{series}'."] });
            var shape = report.Digest.Shapes.GetValueOrDefault(series ?? RunDigest.WholeRun) ?? new LatencyShape(0, [], [], []);
            total += shape.Count;
            if (total > MaxTotalSamples)
                return (null, new() { ["items"] = [$"These items hold more than {MaxTotalSamples:N0} answered requests together; compare fewer at once."] });
            var sorted = await digests.SortedLatenciesAsync(report.Run, basis, series ?? RunDigest.WholeRun, ct);
            // A series' own statistics: an interleaved variant's time is its share, as on its run page.
            items.Add(new ComparedItem(key, series is null ? $"#{runId}" : $"#{runId} {series}", report.Run, series, statistics, sorted, shape));
        }

        baselineKey = string.IsNullOrWhiteSpace(baselineKey) ? keys[0] : baselineKey.Trim();
        if (!keys.Contains(baselineKey)) return (null, new() { ["baseline"] = [$"The baseline '{baselineKey}' is not among the compared items."] });
        return (RunComparison.Build(items, baselineKey, seed, reveal ? json => json : display.Redact), []);
    }
}
