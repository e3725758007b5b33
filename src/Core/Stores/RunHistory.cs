using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.Core.Statistics.Changes;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <summary>A completed run of a benchmark in its history: its figures, how it stood in the history and its pass/fail result.</summary>
/// <param name="History">Null for a run the change rule has not judged (the runs list reads only what is stored).</param>
/// <param name="Limits">Null for a run whose benchmark had and has no limits.</param>
public sealed record HistoryPoint(Run Run, RunSummary Summary, HistoryJudgement? History, LimitsVerdict? Limits)
{
    /// <summary>The verdict of the limits the run was judged by when it ended (see <see cref="LimitsVerdict.Verdict"/>).</summary>
    public ThresholdResult? Thresholds => Limits?.Verdict;
}

/// <summary>
/// Runs over time: summaries (computed once from the samples, then stored), each completed run judged once in its
/// benchmark's history by the change rule (<see cref="ChangeRule"/>, stored with the run), trends, and the
/// benchmark's pass/fail limits, which judge each run alone.
/// </summary>
public sealed class RunHistory(BenchDbContext db, RunQueries queries, RunDigests digests, BenchmarkKinds kinds)
{
    /// <summary>
    /// The stored summary of a run, or one computed now (and stored if the run has ended). Pass the run's
    /// statistics when they are at hand, so its samples are not read a second time.
    /// </summary>
    public async Task<RunSummary> SummaryAsync(Run run, CancellationToken ct, RunStatistics? statistics = null)
    {
        if (run.SummaryJson is not null) return Json.Deserialize<RunSummary>(run.SummaryJson);
        var report = statistics is null ? await queries.ReportAsync(run.Id, ct) : null;
        var summary = RunSummary.From(statistics ?? report?.Statistics ?? RunStatistics.From([]), report?.Series);
        if (run.Status.IsFinal())
        {
            var json = Json.Serialize(summary);
            await KeepAsync(db.Runs.Where(r => r.Id == run.Id && r.SummaryJson == null).ExecuteUpdateAsync(set => set.SetProperty(r => r.SummaryJson, json), ct));
        }
        return summary;
    }

    /// <summary>
    /// Stores a finished run's summary from its statistics, replacing any stored before, and, for a benchmark's run,
    /// the verdict of the limits recorded as it ended (the runner calls this as the run ends; a run ended without them
    /// records its benchmark's limits as they stand now).
    /// </summary>
    public async Task StoreSummaryAsync(long runId, RunStatistics statistics, CancellationToken ct, IReadOnlyList<SeriesStatistics>? series = null)
    {
        var summary = RunSummary.From(statistics, series);
        var json = Json.Serialize(summary);
        var run = await db.Runs.AsNoTracking().Where(r => r.Id == runId)
            .Select(r => new { r.Status, HasBenchmark = r.BenchmarkId != null, r.LimitsJson, r.Benchmark!.ThresholdsJson }).FirstOrDefaultAsync(ct);
        string? limits = null;
        if (run is { HasBenchmark: true })
        {
            var recorded = Json.Deserialize<RecordedLimits>(run.LimitsJson ?? RecordedLimits.Standing(run.ThresholdsJson));
            limits = Json.Serialize(recorded with { Verdict = RecordedLimits.Judge(recorded.Limits, run.Status, summary) });
        }
        await db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(set => set.SetProperty(r => r.SummaryJson, json).SetProperty(r => r.LimitsJson, limits), ct);
    }

    /// <summary>How a run stands by its limits: as recorded when it ended, beside what its benchmark's limits today say.</summary>
    public static LimitsVerdict? LimitsOf(Run run, Thresholds today, RunSummary summary)
    {
        var recorded = run.LimitsJson is { } json ? Json.Deserialize<RecordedLimits>(json) : null;
        var verdict = LimitsVerdict.Of(recorded, today, run.Status, summary);
        return verdict is { Verdict: null, Changed: false } ? null : verdict;
    }

    /// <summary>
    /// Keeps what a read worked out (a summary, a judgement) when the store takes it; a store that refuses (a full
    /// disk) costs the reader nothing: it is worked out again next time. Returns whether it was kept.
    /// </summary>
    static async Task<bool> KeepAsync(Task write)
    {
        try
        {
            await write;
            return true;
        }
        catch (Exception ex) when (StorageFault.Of(ex) is not null)
        {
            StorageFault.ForgetConnections();
            return false;
        }
    }

    /// <summary>
    /// Judges, oldest first, every completed run of the benchmark that the current rule has not judged, each by the
    /// runs before it as if it had just ended (after an upgrade, a whole history; after a run, that run). Cheap when
    /// there is nothing to judge. Two processes judging one run store one judgement: the first one stored stands.
    /// Returns the judgements it made that the store did not keep (a full disk), for the caller to show all the same.
    /// </summary>
    public async Task<IReadOnlyDictionary<long, HistoryJudgement>> JudgeAsync(Benchmark benchmark, CancellationToken ct)
    {
        var unkept = new Dictionary<long, HistoryJudgement>();
        if (!await Completed(benchmark.Id).AnyAsync(r => r.HistoryVersion != HistoryJudgement.CurrentVersion || r.HistoryVersion == null, ct)) return unkept;
        var thresholds = ThresholdsOf(benchmark);
        var settings = ChangeSettings.Of(thresholds);
        var rows = await Completed(benchmark.Id).OrderBy(r => r.Id)
            .Select(r => new { r.Id, r.Kind, r.ParametersJson, r.SummaryJson, r.HistoryJson, r.HistoryVersion }).ToListAsync(ct);

        var confirmedSince = new HashSet<long>();
        foreach (var row in rows.Where(r => r.HistoryVersion == HistoryJudgement.CurrentVersion))
            foreach (var change in Json.Deserialize<HistoryJudgement>(row.HistoryJson!).Confirmed) confirmedSince.Add(change.SinceRunId);

        var runs = new List<HistoryRun>();
        var level = 0L;
        foreach (var row in rows)
        {
            var summary = row.SummaryJson is { } json ? Json.Deserialize<RunSummary>(json) : await SummaryAsync((await queries.FindAsync(row.Id, ct))!, ct);
            var run = HistoryRunOf(row.Id, row.Kind, row.ParametersJson, summary, thresholds.Latency);
            if (run is not null) runs.Add(run);
            if (row.HistoryVersion == HistoryJudgement.CurrentVersion)
            {
                level = Json.Deserialize<HistoryJudgement>(row.HistoryJson!).LevelSinceRunId;
                continue;
            }
            var judgement = run is not null
                ? await ChangeRule.JudgeAsync(runs, confirmedSince, settings, id => LatenciesAsync(id, thresholds.Latency, ct))
                : HistoryJudgement.NothingToJudge(level == 0 ? row.Id : level);
            var stored = Json.Serialize(judgement);
            var written = 0;
            if (unkept.Count > 0 || !await KeepAsync(WriteAsync())) unkept[row.Id] = judgement; // once the store refuses, the rest are judged in memory
            else if (written == 0) // judged meanwhile by another process: its judgement stands
                judgement = Json.Deserialize<HistoryJudgement>(await db.Runs.Where(r => r.Id == row.Id).Select(r => r.HistoryJson).FirstAsync(ct) ?? stored);

            async Task WriteAsync() => written = await db.Runs.Where(r => r.Id == row.Id && r.HistoryVersion == row.HistoryVersion)
                .ExecuteUpdateAsync(set => set.SetProperty(r => r.HistoryJson, stored).SetProperty(r => r.HistoryVersion, HistoryJudgement.CurrentVersion), ct);
            foreach (var change in judgement.Confirmed) confirmedSince.Add(change.SinceRunId);
            level = judgement.LevelSinceRunId;
        }
        return unkept;
    }

    /// <summary>Judges the benchmarks with completed runs the current rule has not judged, a few at a time (after an upgrade).</summary>
    /// <returns>How many benchmarks were judged.</returns>
    public async Task<int> JudgeUnjudgedAsync(int maxBenchmarks, CancellationToken ct)
    {
        var ids = await db.Runs.Where(r => r.BenchmarkId != null && r.Status == RunStatus.Completed
                && (r.HistoryVersion == null || r.HistoryVersion != HistoryJudgement.CurrentVersion))
            .Select(r => r.BenchmarkId!.Value).Distinct().OrderBy(id => id).Take(maxBenchmarks).ToListAsync(ct);
        foreach (var id in ids)
            if (await db.Benchmarks.AsNoTracking().FirstOrDefaultAsync(b => b.Id == id, ct) is { } benchmark)
                await JudgeAsync(benchmark, ct);
        return ids.Count;
    }

    /// <summary>
    /// The last <paramref name="take"/> completed runs of a benchmark, oldest first, each with how it stood in the
    /// history and its limits' result. With <paramref name="storedOnly"/>, runs not yet summarised are left out and
    /// nothing is judged now (the runs list must stay cheap; the runner summarises and judges every run when it ends).
    /// </summary>
    public async Task<IReadOnlyList<HistoryPoint>> TrendAsync(Benchmark benchmark, int take, CancellationToken ct, bool storedOnly = false)
    {
        var unkept = storedOnly ? new Dictionary<long, HistoryJudgement>() : await JudgeAsync(benchmark, ct);
        var thresholds = ThresholdsOf(benchmark);
        var query = Completed(benchmark.Id);
        if (storedOnly) query = query.Where(r => r.SummaryJson != null);
        var runs = await query.OrderByDescending(r => r.Id).Take(take).ToListAsync(ct);
        runs.Reverse();
        var points = new List<HistoryPoint>(runs.Count);
        foreach (var run in runs)
        {
            var summary = await SummaryAsync(run, ct);
            points.Add(new HistoryPoint(run, summary, JudgementOf(run) ?? unkept.GetValueOrDefault(run.Id), LimitsOf(run, thresholds, summary)));
        }
        return points;
    }

    /// <summary>The last <paramref name="take"/> completed runs as <see cref="TrendAsync"/> gives them, and the history they make.</summary>
    public async Task<(IReadOnlyList<HistoryPoint> Points, HistoryView View)> ViewAsync(Benchmark benchmark, int take, CancellationToken ct)
    {
        var points = await TrendAsync(benchmark, take, ct);
        var thresholds = ThresholdsOf(benchmark);
        var runs = points.Select(p => HistoryRunOf(p.Run.Id, p.Run.Kind, p.Run.ParametersJson, p.Summary, thresholds.Latency)).OfType<HistoryRun>().ToList();
        var judgements = points.Where(p => p.History is not null).ToDictionary(p => p.Run.Id, p => p.History!);
        return (points, HistoryView.Of(runs, judgements, ChangeSettings.Of(thresholds).Margin));
    }

    /// <summary>
    /// One run judged in its benchmark's history and by its limits. Null for ad-hoc runs and runs still queued or
    /// running; a run that ended otherwise than completed fails any limits its benchmark has and is not in the history.
    /// </summary>
    public async Task<HistoryPoint?> PointAsync(Run run, CancellationToken ct, RunStatistics? statistics = null)
    {
        if (run.Benchmark is not { } benchmark || !run.Status.IsFinal()) return null;
        var thresholds = ThresholdsOf(benchmark);
        if (run.Status != RunStatus.Completed)
        {
            if (run.LimitsJson is null && !thresholds.HasLimits) return null;
            var ended = await SummaryAsync(run, ct, statistics);
            return LimitsOf(run, thresholds, ended) is { } limits ? new HistoryPoint(run, ended, null, limits) : null;
        }
        var summary = await SummaryAsync(run, ct, statistics);
        var unkept = await JudgeAsync(benchmark, ct);
        var judged = await db.Runs.AsNoTracking().Where(r => r.Id == run.Id).Select(r => new { r.HistoryJson, r.HistoryVersion }).FirstAsync(ct);
        var history = judged.HistoryVersion == HistoryJudgement.CurrentVersion ? Json.Deserialize<HistoryJudgement>(judged.HistoryJson!) : unkept.GetValueOrDefault(run.Id);
        return new HistoryPoint(run, summary, history, LimitsOf(run, thresholds, summary));
    }

    public static Thresholds ThresholdsOf(Benchmark benchmark) =>
        benchmark.ThresholdsJson is null ? Thresholds.None : Json.Deserialize<Thresholds>(benchmark.ThresholdsJson);

    /// <summary>A run's stored judgement by the current rule, or null.</summary>
    public static HistoryJudgement? JudgementOf(Run run) =>
        run.HistoryVersion == HistoryJudgement.CurrentVersion && run.HistoryJson is { } json ? Json.Deserialize<HistoryJudgement>(json) : null;

    IQueryable<Run> Completed(int benchmarkId) =>
        db.Runs.AsNoTracking().Where(r => r.BenchmarkId == benchmarkId && r.Status == RunStatus.Completed);

    async Task<IReadOnlyList<long>> LatenciesAsync(long runId, LatencyBasis basis, CancellationToken ct)
    {
        var run = await db.Runs.AsNoTracking().FirstAsync(r => r.Id == runId, ct);
        return await digests.SortedLatenciesAsync(run, basis, RunDigest.WholeRun, ct);
    }

    /// <summary>A completed run as the change rule sees it; null for one without percentiles (nothing answered).</summary>
    HistoryRun? HistoryRunOf(long id, string kind, string parametersJson, RunSummary summary, LatencyBasis basis)
    {
        var (median, p95, p99) = summary.Of(basis);
        return median > 0 && p95 > 0 && p99 > 0 ? new HistoryRun(id, Canonical(kind, parametersJson), median.Value, p95.Value, p99.Value) : null;
    }

    /// <summary>Parameters in one form whatever version stored them, so a field added since is not a parameter change.</summary>
    string Canonical(string kind, string parametersJson)
    {
        try
        {
            return kinds.Find(kind) is { } k ? Json.Serialize(k.Deserialize(parametersJson)) : parametersJson;
        }
        catch (System.Text.Json.JsonException)
        {
            return parametersJson;
        }
    }
}
