using BenchDashboard.Core.Comparisons;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// Loads the items named by keys ("12", "12/read-miss", a group "12+14+16") and compares them, with the
/// evidence each verdict can use (<see cref="VerdictEvidence"/>); errors are keyed for the API.
/// </summary>
public sealed class ComparisonQueries(RunQueries runs, RunDigests digests, VerdictEvidence evidence, Security.ParameterDisplay display)
{
    public const int MaxItems = 8;

    /// <summary>Runs in one group: a side of A B A B … repeats.</summary>
    public const int MaxGroupRuns = 20;

    /// <summary>Above this many answered requests in all (8 bytes each once decoded), a comparison would hold too much in memory on a small machine.</summary>
    public const int MaxTotalSamples = 5_000_000;

    /// <param name="reveal">An identified administrator: parameters are shown with their secrets.</param>
    /// <param name="basis">What the latencies are in open-model runs: corrected (default) or service time.</param>
    /// <param name="margin">Equivalence margin, a fraction (0.02 is ±2 %).</param>
    public async Task<(RunComparison? Comparison, Dictionary<string, string[]> Errors)> CompareAsync(
        IReadOnlyList<string> keys, string? baselineKey, int seed, CancellationToken ct, bool reveal = false,
        LatencyBasis basis = LatencyBasis.Corrected, double margin = Verdicts.DefaultMargin)
    {
        keys = keys.Select(k => string.Join('+', ComparedItem.GroupParts(k))).Where(k => k.Length > 0).Distinct().ToList();
        if (keys.Count < 2 || keys.Count > MaxItems)
            return (null, new() { ["items"] = [$"Choose 2 to {MaxItems} runs (or phases of runs) to compare."] });
        if (!double.IsFinite(margin) || margin < 0 || margin > 0.5)
            return (null, new() { ["margin"] = ["The equivalence margin must be between 0 and 50 %."] });

        var loader = new Loader(runs, digests, basis);
        var items = new List<ComparedItem>();
        foreach (var key in keys)
        {
            var parts = ComparedItem.GroupParts(key);
            if (parts.Length > MaxGroupRuns) return (null, new() { ["items"] = [$"A group holds at most {MaxGroupRuns} runs; '{key}' has {parts.Length}."] });
            var loaded = new List<Part>();
            foreach (var part in parts)
            {
                var (found, error) = await loader.LoadAsync(part, ct);
                if (error is not null) return (null, new() { ["items"] = [error] });
                loaded.Add(found!);
            }
            if (loaded.Select(p => p.Report.Run.Id).Distinct().Count() < loaded.Count)
                return (null, new() { ["items"] = [$"'{key}' names a run twice; a group is of separate runs."] });
            if (loader.Total > MaxTotalSamples)
                return (null, new() { ["items"] = [$"These items hold more than {MaxTotalSamples:N0} answered requests together; compare fewer at once."] });
            items.Add(loaded.Count == 1 ? Single(key, loaded[0]) : Group(key, loaded));
        }

        baselineKey = string.IsNullOrWhiteSpace(baselineKey) ? keys[0] : string.Join('+', ComparedItem.GroupParts(baselineKey));
        if (!keys.Contains(baselineKey)) return (null, new() { ["baseline"] = [$"The baseline '{baselineKey}' is not among the compared items."] });

        items = await WithEvidenceAsync(items, basis, ct);
        return (RunComparison.Build(items, baselineKey, seed, reveal ? display.Reveal : display.Redact, margin), []);
    }

    /// <summary>One run or run/series, loaded.</summary>
    sealed record Part(string Key, RunReport Report, string? Series, RunStatistics Statistics, LatencyShape Shape, IReadOnlyList<long> Sorted, IReadOnlyList<string>? TookTurnsWith);

    sealed class Loader(RunQueries runs, RunDigests digests, LatencyBasis basis)
    {
        readonly Dictionary<long, RunReport> reports = [];
        public long Total { get; private set; }

        public async Task<(Part?, string?)> LoadAsync(string key, CancellationToken ct)
        {
            if (!ComparedItem.TryParseKey(key, out var runId, out var series))
                return (null, $"'{key}' is not a run id or run/phase (e.g. 12, 12/read-miss, or a group 12+14).");
            if (!reports.TryGetValue(runId, out var report))
            {
                if (await runs.ReportAsync(runId, ct, basis) is not { } found) return (null, $"There is no run {runId}.");
                reports[runId] = report = found;
            }
            var seriesStatistics = series is null ? null : report.Series.FirstOrDefault(s => s.Name == series);
            var statistics = series is null ? report.Statistics : seriesStatistics?.Statistics;
            if (statistics is null) return (null, $"Run {runId} has no series '{series}'.");
            var shape = report.Digest.Shapes.GetValueOrDefault(series ?? RunDigest.WholeRun) ?? new LatencyShape(0, [], [], []);
            Total += shape.Count;
            var sorted = await digests.SortedLatenciesAsync(report.Run, basis, series ?? RunDigest.WholeRun, ct);
            return (new Part(key, report, series, statistics, shape, sorted, seriesStatistics?.TookTurnsWith), null);
        }
    }

    // A series' own statistics: an interleaved variant's time is its share, as on its run page.
    static ComparedItem Single(string key, Part p) =>
        new(key, Label(p.Series ?? RunNames.Setting(p.Report.Run), $"#{p.Report.Run.Id}"), p.Report.Run, p.Series, p.Statistics, p.Sorted, p.Shape) { TookTurnsWith = p.TookTurnsWith };

    /// <summary>"delay-2ms — #12", "delay-2ms — 3 runs: #3, #6, #9": the setting's name first, then its runs; "#12" or "#3+#6+#9" without one.</summary>
    static string Label(string? name, string runs) => name is null ? runs : $"{name} — {runs}";

    /// <summary>
    /// Separate runs of the same thing as one side: counts and times over all their requests, percentiles as the
    /// mean of each run's (<see cref="LatencyLadder.OfRuns"/>, the verdict's estimate), the first run's position
    /// chart, and each run's latencies kept apart for the hierarchical bootstrap. A query's <c>pick=best</c> reads the
    /// same: the best of a few runs favours luck, and a table of best runs beside a verdict over all of them said two
    /// ratios for one median.
    /// </summary>
    static ComparedItem Group(string key, List<Part> parts)
    {
        var perRun = parts.Select(p => (IReadOnlyList<long>)p.Sorted.ToArray()).ToList();
        var pooled = perRun.SelectMany(r => r).Order().ToArray();
        var shape = parts[0].Shape with { Count = pooled.Length, Percentiles = Distribution.Percentiles(pooled), Cdf = Distribution.Cdf(pooled) };
        var series = parts.Select(p => p.Series).Distinct().Count() == 1 ? parts[0].Series : null;
        var settings = parts.Select(p => RunNames.Setting(p.Report.Run)).Distinct().ToList();
        var name = series ?? (settings is [{ } setting] ? setting : null);
        var label = name is null ? string.Join("+", parts.Select(p => $"#{p.Report.Run.Id}"))
            : Label(name, $"{parts.Count} runs: {string.Join(", ", parts.Select(p => $"#{p.Report.Run.Id}"))}");
        var statistics = RunStatistics.Pooled(parts.Select(p => p.Statistics).ToList(), pooled) with { Latency = LatencyLadder.OfRuns(perRun) };
        return new ComparedItem(key, label, parts[0].Report.Run, series, statistics, pooled, shape)
        {
            RunLatencies = perRun,
            GroupRuns = parts.Select(p => p.Report.Run).ToList(),
        };
    }

    /// <summary>Single runs get the history of identical runs (one list per distinct settings); interleaved series their send order too.</summary>
    async Task<List<ComparedItem>> WithEvidenceAsync(List<ComparedItem> items, LatencyBasis basis, CancellationToken ct)
    {
        var compared = items.SelectMany(i => i.Runs.Select(r => r.Id)).ToHashSet();
        var histories = new Dictionary<(string, string, string?), IReadOnlyDictionary<int, IReadOnlyList<double>>>();
        var result = new List<ComparedItem>();
        foreach (var item in items)
        {
            if (item.GroupRuns is not null) { result.Add(item); continue; }
            var settings = (item.Run.Kind, item.Run.ParametersJson, item.Series);
            if (!histories.TryGetValue(settings, out var history))
                histories[settings] = history = await evidence.HistoryAsync(item.Run, item.Series, basis, compared, ct);
            result.Add(item with
            {
                History = history,
                Ordered = item.Interleaved ? await evidence.OrderedAsync(item.Run.Id, item.Series!, basis, ct) : null,
            });
        }
        return result;
    }
}
