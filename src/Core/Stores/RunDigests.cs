using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Reports.Configurations;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Core.Stores;

/// <summary>
/// Builds, stores and reads <see cref="RunDigest"/>s: the runner builds a run's digest when the run ends; a run
/// that ended otherwise (a crash recovered, a run from before digests existed) gets it on its first view.
/// </summary>
public sealed class RunDigests(BenchDbContext db, BenchmarkKinds kinds, ILogger<RunDigests> logger)
{
    // One build at a time in a process: a build reads every sample of a run, and a dozen viewers opening a
    // big run at once must cost one build, not a dozen, to whatever the runner is measuring meanwhile.
    static readonly SemaphoreSlim Building = new(1, 1);

    /// <summary>
    /// The run's digest for <paramref name="basis"/> (a closed run has only the corrected one, which is also its
    /// service time): the stored one, or one built now and stored. A run that has not ended has an empty one:
    /// its samples are not read while it runs (a viewer must not slow the measurement); its live figures are
    /// in <see cref="Run.LiveJson"/>.
    /// </summary>
    public async Task<RunDigest> GetAsync(Run run, LatencyBasis basis, CancellationToken ct)
    {
        if (!run.Status.IsFinal()) return RunDigest.Build([], basis, (_, _) => null).Digest;
        if (await LoadAsync(run.Id, basis, ct) is { } stored) return stored;
        // Samples dropped (Runs:KeepSamplesDays): the digest it kept is all there is, whatever its version.
        if (run.SamplesDroppedUtcMs is not null && await LoadAsync(run.Id, basis, ct, anyVersion: true) is { } kept) return kept;
        await Building.WaitAsync(ct);
        try
        {
            if (await LoadAsync(run.Id, basis, ct) is { } builtMeanwhile) return builtMeanwhile;
            var built = (await BuildCoreAsync(run, store: true, ct)).Digests;
            return built.GetValueOrDefault(basis) ?? built[LatencyBasis.Corrected];
        }
        finally
        {
            Building.Release();
        }
    }

    /// <summary>Builds the run's digests from its samples (one per basis) and, with <paramref name="store"/>, replaces the stored ones.</summary>
    public async Task<IReadOnlyDictionary<LatencyBasis, RunDigest>> BuildAsync(Run run, bool store, CancellationToken ct)
    {
        await Building.WaitAsync(ct); // a viewer arriving meanwhile waits for this build instead of making its own
        try
        {
            return (await BuildCoreAsync(run, store, ct)).Digests;
        }
        finally
        {
            Building.Release();
        }
    }

    /// <summary>
    /// Builds the run's digests and sorted latencies and, with <paramref name="store"/>, stores them; a store that
    /// refuses the write (a full disk) still gets them, read now and not kept: a page must not fail because of it.
    /// </summary>
    async Task<(IReadOnlyDictionary<LatencyBasis, RunDigest> Digests, List<StoredLatencies> Sorted)> BuildCoreAsync(Run run, bool store, CancellationToken ct)
    {
        // The samples as columns, filled as the blocks are unpacked: a million samples are never a million objects at once.
        var samples = new SampleTable(await RunSamples.CountAsync(db, run.Id, ct));
        await foreach (var sample in RunSamples.StreamAsync(db, run.Id, ct)) samples.Add(sample);
        LatencyBasis[] bases = samples.HasLag ? [LatencyBasis.Corrected, LatencyBasis.Service] : [LatencyBasis.Corrected];
        var digests = new Dictionary<LatencyBasis, RunDigest>();
        var rows = new List<StoredLatencies>();
        var seriesBasis = kinds.SeriesBasis(run);
        foreach (var basis in bases)
        {
            // Corrected first, then the same samples turned into service time (no second million objects).
            if (basis == LatencyBasis.Service) samples.ToServiceTimeInPlace();
            var (digest, sorted) = RunDigest.Build(samples, basis, (series, seen) => kinds.Ask(run, (kind, p) => kind is IKindFigures own ? own.Figures(p, series, seen) : null),
                OnEach.Parse(run.OnEachJson) is { } onEach ? (series, seen) => ConfigurationFigures.From(onEach, series, seen, AgentShardRow.AllTurnStarts(run.AgentsJson)) : null,
                seriesBasis.Iterations is null ? null : seriesBasis.IsIterations);
            digests[basis] = digest;
            rows.AddRange(sorted.Select(s => new StoredLatencies { RunId = run.Id, Basis = basis, Series = s.Key, Count = s.Value.Length, Data = SortedLatencies.Encode(s.Value) }));
        }
        if (!store) return (digests, rows);

        try
        {
            await using var transaction = await db.Database.BeginTransactionAsync(ct);
            await db.Digests.Where(d => d.RunId == run.Id).ExecuteDeleteAsync(ct);
            await db.Latencies.Where(l => l.RunId == run.Id).ExecuteDeleteAsync(ct);
            db.Digests.AddRange(digests.Select(d => new StoredDigest { RunId = run.Id, Basis = d.Key, Version = RunDigest.CurrentVersion, Json = Json.Serialize(d.Value) }));
            db.Latencies.AddRange(rows);
            await db.SaveChangesAsync(ct);
            await transaction.CommitAsync(ct);
        }
        catch (Exception ex) when (StorageFault.Of(ex) is { } fault)
        {
            logger.LogWarning("Run {RunId}'s digest was built but could not be stored ({Reason}); it is built again on the next view", run.Id, fault.Reason);
            StorageFault.ForgetConnections();
        }
        finally
        {
            db.ChangeTracker.Clear();
        }
        return (digests, rows);
    }

    /// <summary>
    /// An item's sorted answered latencies for a comparison: the whole run (<see cref="RunDigest.WholeRun"/>) or a
    /// series, read at any rank without decoding the rest (<see cref="SortedLatencies"/>; one reader at a time).
    /// Builds the digest first if the run has none yet.
    /// </summary>
    public async Task<IReadOnlyList<long>> SortedLatenciesAsync(Run run, LatencyBasis basis, string series, CancellationToken ct)
    {
        if (!run.Status.IsFinal())
        {
            var samples = await RunSamples.ListAsync(db, run.Id, ct);
            return basis.Apply(samples).Where(s => !s.IsWarmup && !s.Error.IsTransportError() && (series.Length == 0 || s.Series == series))
                .Select(s => s.LatencyNs).Order().ToArray();
        }
        List<StoredLatencies> rows;
        if (await db.Latencies.AnyAsync(l => l.RunId == run.Id, ct))
            rows = await db.Latencies.AsNoTracking().Where(l => l.RunId == run.Id && l.Series == series).ToListAsync(ct);
        else
        {
            await Building.WaitAsync(ct);
            try
            {
                rows = (await BuildCoreAsync(run, store: true, ct)).Sorted.Where(l => l.Series == series).ToList(); // stored, where the store takes it
            }
            finally
            {
                Building.Release();
            }
        }
        var row = rows.FirstOrDefault(r => r.Basis == basis) ?? rows.FirstOrDefault(r => r.Basis == LatencyBasis.Corrected);
        return row is null ? [] : new SortedLatencies(row.Data);
    }

    async Task<RunDigest?> LoadAsync(long runId, LatencyBasis basis, CancellationToken ct, bool anyVersion = false)
    {
        var rows = await db.Digests.AsNoTracking().Where(d => d.RunId == runId && (anyVersion || d.Version == RunDigest.CurrentVersion)).ToListAsync(ct);
        var row = rows.FirstOrDefault(r => r.Basis == basis) ?? rows.FirstOrDefault(r => r.Basis == LatencyBasis.Corrected);
        return row is null ? null : Json.Deserialize<RunDigest>(row.Json);
    }
}
