using BenchDashboard.Core.Data;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Runs;

public sealed record RunFilter(int? BenchmarkId = null, RunStatus? Status = null, int Take = 200);

/// <summary>
/// A run with everything its detail page and API need, statistics computed from all its samples: over the
/// whole run, and per series for runs that measure several things in turn (cache phases).
/// </summary>
public sealed record RunReport(Run Run, RunStatistics Statistics, IReadOnlyList<SeriesStatistics> Series, IReadOnlyList<Sample> Samples)
{
    public RunNotes? Notes => Run.NotesJson is null ? null : Json.Deserialize<RunNotes>(Run.NotesJson);

    public EnvironmentSnapshot? Environment =>
        Run.EnvironmentJson is null ? null : Json.Deserialize<EnvironmentSnapshot>(Run.EnvironmentJson);

    public CachingEvidence? CachingEvidence =>
        Run.CachingEvidenceJson is null ? null : Json.Deserialize<CachingEvidence>(Run.CachingEvidenceJson);
}

/// <summary>Read side for pages and the API: pages call these instead of touching EF themselves.</summary>
public sealed class RunQueries(BenchDbContext db)
{
    public Task<List<Run>> ListAsync(RunFilter filter, CancellationToken ct)
    {
        var query = db.Runs.AsNoTracking().Include(r => r.Benchmark).AsQueryable();
        if (filter.BenchmarkId is { } benchmarkId) query = query.Where(r => r.BenchmarkId == benchmarkId);
        if (filter.Status is { } status) query = query.Where(r => r.Status == status);
        return query.OrderByDescending(r => r.Id).Take(filter.Take).ToListAsync(ct);
    }

    public Task<Run?> FindAsync(long runId, CancellationToken ct) =>
        db.Runs.AsNoTracking().Include(r => r.Benchmark).FirstOrDefaultAsync(r => r.Id == runId, ct);

    public Task<List<Sample>> SamplesAsync(long runId, CancellationToken ct) =>
        db.Samples.AsNoTracking().Where(s => s.RunId == runId).OrderBy(s => s.Index).ToListAsync(ct);

    public async Task<RunReport?> ReportAsync(long runId, CancellationToken ct)
    {
        var run = await FindAsync(runId, ct);
        if (run is null) return null;
        var samples = await SamplesAsync(runId, ct);
        return new RunReport(run, RunStatistics.From(samples), SeriesStatistics.From(samples), samples);
    }
}
