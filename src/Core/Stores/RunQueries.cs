using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <param name="EnvField">An environment field (<see cref="EnvironmentSnapshot.Field"/>), e.g. WEBSITE_DYNAMIC_CACHE: only runs that recorded it.</param>
/// <param name="EnvValue">With <paramref name="EnvField"/>: only runs where it had this value.</param>
public sealed record RunFilter(int? BenchmarkId = null, RunStatus? Status = null, int Take = 200, string? EnvField = null, string? EnvValue = null);

/// <summary>
/// A run with everything its detail page and API need: its row and its <see cref="RunDigest"/> (statistics over
/// the whole run and per series, analyses, chart data), for one latency basis.
/// </summary>
public sealed record RunReport(Run Run, RunDigest Digest)
{
    public RunStatistics Statistics => Digest.Statistics;
    public IReadOnlyList<SeriesStatistics> Series => Digest.Series;

    public RunNotes? Notes => Run.NotesJson is null ? null : Json.Deserialize<RunNotes>(Run.NotesJson);

    public EnvironmentSnapshot? Environment =>
        Run.EnvironmentJson is null ? null : Json.Deserialize<EnvironmentSnapshot>(Run.EnvironmentJson);

    public CachingEvidence? CachingEvidence =>
        Run.CachingEvidenceJson is null ? null : Json.Deserialize<CachingEvidence>(Run.CachingEvidenceJson);
}

/// <summary>Read side for pages and the API: pages call these instead of touching EF themselves.</summary>
public sealed class RunQueries(BenchDbContext db, RunDigests digests)
{
    public async Task<List<Run>> ListAsync(RunFilter filter, CancellationToken ct)
    {
        var query = db.Runs.AsNoTracking().Include(r => r.Benchmark).AsQueryable();
        if (filter.BenchmarkId is { } benchmarkId) query = query.Where(r => r.BenchmarkId == benchmarkId);
        if (filter.Status is { } status) query = query.Where(r => r.Status == status);
        if (string.IsNullOrWhiteSpace(filter.EnvField)) return await query.OrderByDescending(r => r.Id).Take(filter.Take).ToListAsync(ct);

        // The environment is JSON; filter the newest runs in memory rather than tie queries to SQLite's JSON functions.
        var recent = await query.Where(r => r.EnvironmentJson != null).OrderByDescending(r => r.Id).Take(MaxEnvironmentScan).ToListAsync(ct);
        return recent.Where(r => EnvironmentValue(r, filter.EnvField) is { } value && (filter.EnvValue is null || value == filter.EnvValue))
            .Take(filter.Take).ToList();
    }

    /// <summary>How many runs there are in all (the runs list says so when a filter matches none).</summary>
    public Task<int> CountAsync(CancellationToken ct) => db.Runs.CountAsync(ct);

    /// <summary>How many of the newest runs an environment filter looks at.</summary>
    public const int MaxEnvironmentScan = 5000;

    public static string? EnvironmentValue(Run run, string field) =>
        run.EnvironmentJson is null ? null : Json.Deserialize<EnvironmentSnapshot>(run.EnvironmentJson).Field(field);

    public Task<Run?> FindAsync(long runId, CancellationToken ct) =>
        db.Runs.AsNoTracking().Include(r => r.Benchmark).FirstOrDefaultAsync(r => r.Id == runId, ct);

    /// <summary>
    /// The ad-hoc runs queued in the same instant as this one, itself included, in id order: a repeat's runs (queued
    /// in one call, with one timestamp). Just this run for a run of a saved benchmark or one queued alone.
    /// </summary>
    public async Task<List<Run>> QueuedTogetherAsync(Run run, CancellationToken ct) =>
        run.BenchmarkId is not null ? [run]
            : await db.Runs.AsNoTracking().Where(r => r.QueuedUtcMs == run.QueuedUtcMs && r.BenchmarkId == null).OrderBy(r => r.Id).Take(200).ToListAsync(ct);

    public Task<List<Sample>> SamplesAsync(long runId, CancellationToken ct) => RunSamples.ListAsync(db, runId, ct);

    /// <summary>
    /// The latencies a run's statistics rank (measured operations with a response: warm-up and failures without
    /// one left out), in the order the operations started on <paramref name="basis"/> (ties in index order): what
    /// <see cref="LatencyIntervalLog"/> writes. Sorted here, 24 bytes an operation, since blocks are in index order.
    /// </summary>
    public async IAsyncEnumerable<LatencyIntervalLog.Operation> StreamRankedLatencies(long runId, string? series, LatencyBasis basis,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken ct = default)
    {
        var service = basis == LatencyBasis.Service;
        var ranked = new List<(long StartNs, int Index, long LatencyNs)>();
        var samples = series is null ? RunSamples.StreamAsync(db, runId, ct) : RunSamples.StreamSeriesAsync(db, runId, series, ct);
        await foreach (var s in samples)
        {
            if (s.IsWarmup || s.Error.IsTransportError()) continue;
            var lag = service ? s.LagNs ?? 0 : 0; // service time: from when it was actually sent (see LatencyBases)
            ranked.Add((s.OffsetNs + lag, s.Index, s.LatencyNs - lag));
        }
        ranked.Sort();
        foreach (var (start, _, latency) in ranked) yield return new(start, latency);
    }

    public Task<bool> HasSeriesAsync(long runId, string series, CancellationToken ct) => RunSamples.HasSeriesAsync(db, runId, series, ct);

    /// <summary>The samples one by one, for exports that must not hold a million of them at once.</summary>
    public IAsyncEnumerable<Sample> StreamSamples(long runId) => RunSamples.StreamAsync(db, runId);

    /// <param name="basis">For an open-model run, which latency the figures rank; a closed run has one.</param>
    public async Task<RunReport?> ReportAsync(long runId, CancellationToken ct, LatencyBasis basis = LatencyBasis.Corrected)
    {
        var run = await FindAsync(runId, ct);
        if (run is null) return null;
        return new RunReport(run, await digests.GetAsync(run, basis, ct));
    }
}
