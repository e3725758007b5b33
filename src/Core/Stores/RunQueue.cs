using BenchDashboard.Core.Agents;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Reports;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

public enum CancelOutcome { NotFound, Cancelled, CancelRequested, AlreadyFinished }

public enum DeleteOutcome { NotFound, Deleted, StillRunning }

/// <summary>The result of asking for a run: either the queued run or the field errors that stopped it.</summary>
/// <param name="Notices">What the reader should know about the queued run (<see cref="LoadModelValidator.Notices"/>).</param>
public sealed record EnqueueResult(Run? Run, IReadOnlyDictionary<string, string[]> Errors, IReadOnlyList<string>? Notices = null)
{
    public bool IsValid => Run is not null;
}

/// <summary>Puts runs on the queue (after validation against <see cref="RunLimits"/>) and cancels them.</summary>
public sealed class RunQueue(BenchDbContext db, BenchmarkKinds kinds, TimeProvider time, Microsoft.Extensions.Options.IOptions<RunLimits> limits, StorageReserve reserve)
{
    /// <summary>A run of any registered kind's parameters record; the kind follows from its type.</summary>
    /// <param name="agents">Spread the run over this many runner agents on other machines; null: the dashboard's own runner.</param>
    /// <param name="onEach">Or run the whole workload on each of these agents in turn (never with <paramref name="agents"/>).</param>
    public async Task<EnqueueResult> EnqueueAsync(object parameters, int? benchmarkId, CancellationToken ct, int? agents = null, OnEach? onEach = null)
    {
        var kind = kinds.For(parameters.GetType());
        var errors = await kind.ValidateAsync(parameters, ct);
        ValidatePlacement(errors, kind, parameters, agents, onEach);
        // Serialized only once valid: a value the validator refuses (NaN, say) may not be serializable at all.
        if (errors.Count > 0) return new EnqueueResult(null, errors);
        var result = await EnqueueAsync(kind.Name, Json.Serialize(parameters), errors, benchmarkId, ct, agents, onEach);
        return result with { Notices = LoadModelValidator.Notices(parameters, kind.Planned(parameters), limits.Value) };
    }

    /// <summary>
    /// Several runs queued together, in the order given (A B A B … for separate variants): all of them, or none
    /// when any is invalid; errors are keyed by the API's field names, the first run's message for a field kept.
    /// </summary>
    public async Task<(IReadOnlyList<Run> Runs, IReadOnlyDictionary<string, string[]> Errors)> EnqueueAllAsync(IReadOnlyList<object> parameters, CancellationToken ct, int? agents = null, OnEach? onEach = null)
    {
        var errors = new Dictionary<string, string[]>();
        var runs = new List<Run>();
        // One instant for all: how a run's page finds the others queued with it (RunQueries.QueuedTogetherAsync).
        var now = time.GetUtcNow().ToUnixTimeMilliseconds();
        for (var i = 0; i < parameters.Count; i++)
        {
            var kind = kinds.For(parameters[i].GetType());
            foreach (var (field, messages) in await kind.ValidateAsync(parameters[i], ct))
                errors.TryAdd(field, messages);
            ValidatePlacement(errors, kind, parameters[i], agents, onEach);
            if (errors.Count > 0) continue; // nothing is queued; an invalid value may not be serializable
            runs.Add(new Run
            {
                Agents = onEach?.Agents.Count ?? agents,
                OnEachJson = onEach?.ToJson(),
                Kind = kind.Name,
                ParametersJson = Json.Serialize(parameters[i]),
                Status = RunStatus.Queued,
                QueuedUtcMs = now,
            });
        }
        if (errors.Count > 0) return ([], errors);
        db.Runs.AddRange(runs); // one SaveChanges: one transaction, ids in this order
        await db.SaveChangesAsync(ct);
        return (runs, errors);
    }

    /// <summary>A run of a saved benchmark (run now, or a schedule slot), validated again against today's limits and target policy.</summary>
    public async Task<EnqueueResult> EnqueueAsync(Benchmark benchmark, CancellationToken ct)
    {
        var (json, errors) = await kinds.ValidateStoredAsync(benchmark.Kind, benchmark.ParametersJson, ct);
        var onEach = OnEach.Parse(benchmark.OnEachJson);
        if (errors.Count == 0 && kinds.Find(benchmark.Kind) is { } kind) ValidatePlacement(errors, kind, kind.Deserialize(json), benchmark.Agents, onEach);
        return await EnqueueAsync(benchmark.Kind, json, errors, benchmark.Id, ct, benchmark.Agents, onEach);
    }

    /// <summary>Where the run measures: the dashboard's runner, a load divided over agents, or the whole load on each named agent.</summary>
    void ValidatePlacement(Dictionary<string, string[]> errors, IBenchmarkKind kind, object parameters, int? agents, OnEach? onEach)
    {
        if (onEach is not null) OnEachField.Validate(errors, onEach, agents, kind, parameters, limits.Value);
        else AgentsField.Validate(errors, kind, parameters, agents, limits.Value);
    }

    async Task<EnqueueResult> EnqueueAsync(string kind, string parametersJson, Dictionary<string, string[]> errors, int? benchmarkId, CancellationToken ct, int? agents = null, OnEach? onEach = null)
    {
        if (errors.Count > 0) return new EnqueueResult(null, errors);
        var benchmarkName = benchmarkId is { } id ? await db.Benchmarks.Where(b => b.Id == id).Select(b => b.Name).FirstOrDefaultAsync(ct) : null;
        var run = new Run
        {
            // An on-each run counts its agents here too: the agents' coordinator claims runs with agents.
            Agents = onEach?.Agents.Count ?? agents,
            OnEachJson = onEach?.ToJson(),
            BenchmarkId = benchmarkId,
            BenchmarkName = benchmarkName,
            Kind = kind,
            ParametersJson = parametersJson,
            Status = RunStatus.Queued,
            QueuedUtcMs = time.GetUtcNow().ToUnixTimeMilliseconds(),
        };
        db.Runs.Add(run);
        await db.SaveChangesAsync(ct);
        return new EnqueueResult(run, errors);
    }

    /// <summary>
    /// The same parameters queued again. It belongs to the run's benchmark only while the benchmark still has
    /// those parameters: a run of other settings in its history would pass for a regression or an improvement.
    /// </summary>
    public async Task<EnqueueResult?> AgainAsync(long runId, CancellationToken ct)
    {
        if (await db.Runs.AsNoTracking().Include(r => r.Benchmark).FirstOrDefaultAsync(r => r.Id == runId, ct) is not { } run) return null;
        if (kinds.Find(run.Kind) is not { } kind) return new EnqueueResult(null, new Dictionary<string, string[]> { ["kind"] = [$"Unknown benchmark kind '{run.Kind}'."] });
        var parameters = kind.Deserialize(run.ParametersJson);
        var same = run.Benchmark is { } b && b.Kind == run.Kind && Json.Serialize(kind.Deserialize(b.ParametersJson)) == Json.Serialize(parameters);
        var onEach = OnEach.Parse(run.OnEachJson);
        return await EnqueueAsync(parameters, same ? run.BenchmarkId : null, ct, onEach is null ? run.Agents : null, onEach);
    }

    /// <summary>Deletes a finished (or queued) run with its samples and digests; a running run must be cancelled first.</summary>
    public async Task<DeleteOutcome> DeleteAsync(long runId, CancellationToken ct)
    {
        // The samples go with the run (a cascade); SQLite deletes them in one statement, a million in a few seconds.
        Task<int> DeleteRowAsync() => db.Runs.Where(r => r.Id == runId && r.Status != RunStatus.Running).ExecuteDeleteAsync(ct);
        int deleted;
        try
        {
            deleted = await DeleteRowAsync();
        }
        catch (Exception ex) when (StorageFault.IsFull(ex) && reserve.Release())
        {
            // SQLite needs room to delete too (its WAL grows first): on a full disk the reserve makes that room, so a
            // run that filled the disk can be deleted to free it.
            StorageFault.ForgetConnections();
            deleted = await DeleteRowAsync();
        }
        if (deleted == 1) return DeleteOutcome.Deleted;
        return await db.Runs.AnyAsync(r => r.Id == runId, ct) ? DeleteOutcome.StillRunning : DeleteOutcome.NotFound;
    }

    /// <summary>
    /// A queued run is cancelled at once; a running one is flagged, and its runner (possibly another process)
    /// sees the flag within a second and stops, keeping the samples taken so far.
    /// </summary>
    public async Task<CancelOutcome> CancelAsync(long runId, CancellationToken ct)
    {
        var now = time.GetUtcNow().ToUnixTimeMilliseconds();
        // Ended here, never by a runner: the limits it ended under are recorded here too.
        var benchmark = await db.Runs.Where(r => r.Id == runId && r.BenchmarkId != null).Select(r => new { r.Benchmark!.ThresholdsJson }).FirstOrDefaultAsync(ct);
        var limits = benchmark is null ? null : RecordedLimits.Standing(benchmark.ThresholdsJson);
        var queued = await db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Queued)
            .ExecuteUpdateAsync(set => set.SetProperty(r => r.Status, RunStatus.Cancelled).SetProperty(r => r.EndedUtcMs, now).SetProperty(r => r.LimitsJson, limits), ct);
        if (queued == 1) return CancelOutcome.Cancelled;

        var running = await db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Running)
            .ExecuteUpdateAsync(set => set.SetProperty(r => r.CancelRequested, true), ct);
        if (running == 1) return CancelOutcome.CancelRequested;

        return await db.Runs.AnyAsync(r => r.Id == runId, ct) ? CancelOutcome.AlreadyFinished : CancelOutcome.NotFound;
    }
}
