using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Runs;

/// <summary>A completed run of a benchmark in its history: its figures, its regression check and its pass/fail result.</summary>
public sealed record HistoryPoint(Run Run, RunSummary Summary, RegressionCheck? Regression, ThresholdResult? Thresholds);

/// <summary>
/// Runs over time: summaries (computed once from the samples, then stored), trends per benchmark, the
/// regression flag against the trailing runs and the benchmark's pass/fail limits.
/// </summary>
public sealed class RunHistory(BenchDbContext db, RunQueries queries)
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
            await db.Runs.Where(r => r.Id == run.Id && r.SummaryJson == null).ExecuteUpdateAsync(set => set.SetProperty(r => r.SummaryJson, json), ct);
        }
        return summary;
    }

    /// <summary>Stores a finished run's summary from its statistics, replacing any stored before.</summary>
    public async Task StoreSummaryAsync(long runId, RunStatistics statistics, CancellationToken ct, IReadOnlyList<SeriesStatistics>? series = null)
    {
        var json = Json.Serialize(RunSummary.From(statistics, series));
        await db.Runs.Where(r => r.Id == runId).ExecuteUpdateAsync(set => set.SetProperty(r => r.SummaryJson, json), ct);
    }

    /// <summary>
    /// The last <paramref name="take"/> completed runs of a benchmark, oldest first, each judged against the
    /// runs before it. With <paramref name="storedOnly"/>, runs not yet summarised are left out instead of
    /// being read now (the runs list must stay cheap; the runner summarises every run when it ends).
    /// </summary>
    public async Task<IReadOnlyList<HistoryPoint>> TrendAsync(Benchmark benchmark, int take, CancellationToken ct, bool storedOnly = false)
    {
        var thresholds = ThresholdsOf(benchmark);
        var query = db.Runs.AsNoTracking().Where(r => r.BenchmarkId == benchmark.Id && r.Status == RunStatus.Completed);
        if (storedOnly) query = query.Where(r => r.SummaryJson != null);
        var runs = await query.OrderByDescending(r => r.Id).Take(take + thresholds.TrailingRuns).ToListAsync(ct);
        runs.Reverse();
        var summaries = new List<RunSummary>(runs.Count);
        foreach (var run in runs) summaries.Add(await SummaryAsync(run, ct));

        var points = new List<HistoryPoint>();
        for (var i = Math.Max(0, runs.Count - take); i < runs.Count; i++)
        {
            var previous = RegressionCheck.Previous(summaries, i, thresholds.TrailingRuns);
            points.Add(new HistoryPoint(runs[i], summaries[i], RegressionCheck.Evaluate(summaries[i], previous, thresholds.RegressionPercent),
                ThresholdResult.Evaluate(thresholds, summaries[i])));
        }
        return points;
    }

    /// <summary>
    /// One run judged against its benchmark's earlier completed runs and limits. Null for ad-hoc runs and runs
    /// still queued or running; a run that ended otherwise than completed fails any limits its benchmark has.
    /// </summary>
    public async Task<HistoryPoint?> PointAsync(Run run, CancellationToken ct, RunStatistics? statistics = null)
    {
        if (run.Benchmark is not { } benchmark || !run.Status.IsFinal()) return null;
        var thresholds = ThresholdsOf(benchmark);
        if (run.Status != RunStatus.Completed)
            return thresholds.HasLimits ? new HistoryPoint(run, await SummaryAsync(run, ct, statistics), null, ThresholdResult.NotCompleted(run.Status)) : null;
        var earlier = await db.Runs.AsNoTracking()
            .Where(r => r.BenchmarkId == benchmark.Id && r.Status == RunStatus.Completed && r.Id < run.Id)
            .OrderByDescending(r => r.Id).Take(thresholds.TrailingRuns).ToListAsync(ct);
        var previous = new List<RunSummary>();
        foreach (var r in earlier) previous.Add(await SummaryAsync(r, ct));
        var summary = await SummaryAsync(run, ct, statistics);
        return new HistoryPoint(run, summary, RegressionCheck.Evaluate(summary, previous, thresholds.RegressionPercent), ThresholdResult.Evaluate(thresholds, summary));
    }

    public static Thresholds ThresholdsOf(Benchmark benchmark) =>
        benchmark.ThresholdsJson is null ? Thresholds.None : Json.Deserialize<Thresholds>(benchmark.ThresholdsJson);
}
