using System.Collections.Concurrent;
using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Processing.Claiming;

/// <summary>
/// The runner's writes to the Runs table. Status changes are conditional UPDATEs so that several runner
/// processes sharing one database never claim the same run or overwrite each other's outcome.
/// </summary>
public sealed class RunStore(IServiceScopeFactory scopes, TimeProvider time, IOptions<RunnerOptions> options, RunnerIdentity identity)
{
    /// <summary>"{machine}/{slot}": the same after a restart (<see cref="RunnerIdentity"/>).</summary>
    public string RunnerName => identity.Name;

    long Now => time.GetUtcNow().ToUnixTimeMilliseconds();

    // The runs this process is seeing through. Their heartbeat can go stale while it is alive (a database
    // locked past the busy timeout holds heartbeats too): staleness never makes it end them itself.
    readonly ConcurrentDictionary<long, byte> processing = new();

    /// <summary>How the reason of a run ended for a stale heartbeat starts: its runner may take it back (<see cref="Heartbeat"/>).</summary>
    const string StaleReasonStart = "The runner stopped without finishing this run";

    /// <summary>The advisory lock claims take on PostgreSQL: any fixed number, the same in every process ("BenchClm").</summary>
    const long ClaimLockKey = 0x42656E6368436C6D;

    /// <summary>This process is done with a run it claimed (<see cref="BenchDashboard.Processing.Executing.RunProcessor"/>).</summary>
    public void Released(long runId) => processing.TryRemove(runId, out _);

    /// <summary>
    /// Claims the oldest queued run, or returns null when none is waiting or <see cref="RunnerOptions.MaxParallelRuns"/>
    /// runs are already running: on the whole database by default, so that two runner processes do not
    /// measure at once and disturb each other; only this runner's with <c>Runner:ParallelLimit=runner</c>.
    /// The limit is part of the claiming UPDATE, so it holds under races.
    /// </summary>
    /// <param name="withAgents">
    /// Claim runs spread over agents (<see cref="Run.Agents"/>: the dashboard's coordinator) rather than runs of a
    /// runner's own. Neither claims past an older queued run of the other's: runs start in the order they were
    /// queued, though a runner, finishing a run, looks for the next at once and the coordinator polls.
    /// </param>
    public async Task<Run?> TryClaimAsync(CancellationToken ct, bool withAgents = false)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var max = options.Value.MaxParallelRuns;
        var anyRunner = options.Value.ParallelLimit == ParallelLimit.Database;
        var requirements = ActivatorUtilities.CreateInstance<RunRequirements>(scope.ServiceProvider);
        var runnerName = RunnerName;
        var queued = await db.Runs.Where(r => r.Status == RunStatus.Queued && (r.Agents != null) == withAgents).OrderBy(r => r.Id)
            .Select(r => new { r.Id, r.Kind, r.ParametersJson, r.WaitingFor }).Take(QueuedLookedAt).ToListAsync(ct);
        foreach (var candidate in queued)
        {
            var id = candidate.Id;
            // A run this runner cannot run is left to one that can, saying what it waits for; the next one is looked at.
            if (requirements.Missing(candidate.Kind, candidate.ParametersJson, runnerName) is { } missing)
            {
                if (candidate.WaitingFor != missing)
                    await db.Runs.Where(r => r.Id == id && r.Status == RunStatus.Queued).ExecuteUpdateAsync(set => set.SetProperty(r => r.WaitingFor, missing), ct);
                continue;
            }
            // One UPDATE, which SQLite executes alone: the claim, the order between claimers and the limit hold under races.
            // PostgreSQL runs UPDATEs side by side, each counting the running runs without the others' claims; an
            // advisory lock held to the commit makes claims take turns across every process on the database. On
            // SQLite the transaction begins IMMEDIATE, taking the database's write lock before the clock is read.
            await using var transaction = await db.Database.BeginTransactionAsync(ct);
            if (db.IsPostgreSql()) await db.Database.ExecuteSqlRawAsync($"SELECT pg_advisory_xact_lock({ClaimLockKey})", ct);
            // Read after waiting for the lock: a start time from before the wait could precede the end of the run
            // whose finish let this claim in (another runner's finish holds SQLite's write lock while it is written).
            var now = Now;
            var claimed = await db.Runs
                .Where(r => r.Id == id && r.Status == RunStatus.Queued && (r.Agents != null) == withAgents)
                .Where(r => !db.Runs.Any(older => older.Status == RunStatus.Queued && older.Id < id && (older.Agents != null) != withAgents))
                .Where(r => db.Runs.Count(o => o.Status == RunStatus.Running && (anyRunner || o.RunnerName == runnerName)) < max)
                .ExecuteUpdateAsync(set => set
                    .SetProperty(r => r.Status, RunStatus.Running)
                    .SetProperty(r => r.StartedUtcMs, now)
                    .SetProperty(r => r.HeartbeatUtcMs, now)
                    .SetProperty(r => r.RunnerName, runnerName)
                    .SetProperty(r => r.WaitingFor, (string?)null), ct);
            await transaction.CommitAsync(ct);
            if (claimed == 1)
            {
                processing[id] = 0;
                return await db.Runs.AsNoTracking().FirstAsync(r => r.Id == id, ct);
            }
            // Another runner (or a cancel) got there first, or the limit is reached: look at the next, or stop.
            if (await db.Runs.CountAsync(r => r.Status == RunStatus.Running && (anyRunner || r.RunnerName == runnerName), ct) >= max) return null;
            // An older run of the other claimer's waits first.
            if (await db.Runs.AnyAsync(r => r.Status == RunStatus.Queued && r.Id < id && (r.Agents != null) != withAgents, ct)) return null;
        }
        return null;
    }

    /// <summary>How many of the oldest queued runs one claim looks at (past those this runner cannot run).</summary>
    const int QueuedLookedAt = 50;

    /// <summary>
    /// Ends runs whose runner is gone: this runner's own from before a restart (it holds their runner's name,
    /// so their runner is dead: <see cref="RunnerIdentity"/>), and any runner's whose heartbeat is older than
    /// <see cref="RunnerOptions.StaleAfterSeconds"/>, except the runs this process is seeing through. Progress
    /// becomes what is stored. A run whose executor had finished (<see cref="Run.MeasuredSamples"/>) and whose
    /// samples are all stored is completed; the others are interrupted, keeping their samples. Returns how many
    /// runs were ended.
    /// </summary>
    public async Task<int> RecoverAsync(bool ownOnly, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var now = Now;
        var staleBefore = now - options.Value.StaleAfterSeconds * 1000L;
        var candidates = await db.Runs
            .Where(r => r.Status == RunStatus.Running && (ownOnly ? r.RunnerName == RunnerName : r.HeartbeatUtcMs == null || r.HeartbeatUtcMs < staleBefore))
            .Select(r => r.Id).ToListAsync(ct);
        var why = ownOnly
            ? "The runner's process ended during this run; it was recovered when the runner started again."
            : $"{StaleReasonStart} (no heartbeat for {options.Value.StaleAfterSeconds} s).";
        var completedNote = Json.Serialize(new RunNotes { Notes = [$"{why} Every measured sample had been stored, so the run is complete; its notes were lost with the process."] });
        var ended = 0;
        var runnerName = RunnerName;
        foreach (var id in candidates.Where(id => !processing.ContainsKey(id)))
        {
            var gone = db.Runs.Where(r => r.Id == id && r.Status == RunStatus.Running);
            gone = ownOnly ? gone.Where(r => r.RunnerName == runnerName) : gone.Where(r => r.HeartbeatUtcMs == null || r.HeartbeatUtcMs < staleBefore);
            var limitsJson = await StandingLimitsAsync(db, id, ct);
            // The samples stored in either store (blocks, or rows of a database not yet converted), counted in the update itself.
            ended += await gone.ExecuteUpdateAsync(set => set
                .SetProperty(r => r.LimitsJson, limitsJson)
                .SetProperty(r => r.CompletedRequests, r => (db.Samples.Count(x => x.RunId == r.Id) + db.SampleBlocks.Where(b => b.RunId == r.Id).Sum(b => b.Count)))
                .SetProperty(r => r.Status, r => r.MeasuredSamples == (db.Samples.Count(x => x.RunId == r.Id) + db.SampleBlocks.Where(b => b.RunId == r.Id).Sum(b => b.Count)) ? RunStatus.Completed : RunStatus.Interrupted)
                .SetProperty(r => r.Error, r => r.MeasuredSamples == (db.Samples.Count(x => x.RunId == r.Id) + db.SampleBlocks.Where(b => b.RunId == r.Id).Sum(b => b.Count))
                    ? null
                    : why + " The " + (db.Samples.Count(x => x.RunId == r.Id) + db.SampleBlocks.Where(b => b.RunId == r.Id).Sum(b => b.Count)).ToString() + " samples stored before that are kept.")
                .SetProperty(r => r.NotesJson, r => r.MeasuredSamples == (db.Samples.Count(x => x.RunId == r.Id) + db.SampleBlocks.Where(b => b.RunId == r.Id).Sum(b => b.Count)) ? r.NotesJson ?? completedNote : r.NotesJson)
                .SetProperty(r => r.EndedUtcMs, now)
                .SetProperty(r => r.LiveJson, (string?)null), ct);
        }
        return ended;
    }

    /// <summary>The environment, stored as the run starts (a crash later must not lose it).</summary>
    public async Task StartedAsync(long runId, string environmentJson, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await Owned(db, runId).ExecuteUpdateAsync(set => set.SetProperty(r => r.EnvironmentJson, environmentJson), ct);
    }

    /// <summary>The executor finished its load with this many samples; storing the last of them may still be under way.</summary>
    public async Task MeasuredAsync(long runId, int samples, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await Owned(db, runId).ExecuteUpdateAsync(set => set.SetProperty(r => r.MeasuredSamples, samples), ct);
    }

    /// <summary>
    /// Refreshes the heartbeat and progress of a run this runner owns; returns whether a cancel was requested.
    /// Blocking, for the run's heartbeat thread (<see cref="BenchDashboard.Processing.Executing.BackgroundThread"/>): awaited, a PostgreSQL
    /// read would resume on the socket engine's thread, which measures when its completions run inline.
    /// </summary>
    public bool Heartbeat(long runId, int completed, string? liveJson)
    {
        using var scope = scopes.CreateScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        // A run another runner ended as interrupted while this one's heartbeats were held up (a long lock) is
        // still being measured here: the heartbeat takes it back, and its outcome will be the true one.
        OwnedOrTakenBack(db, runId).ExecuteUpdate(set => set
            .SetProperty(r => r.HeartbeatUtcMs, Now)
            .SetProperty(r => r.CompletedRequests, completed)
            .SetProperty(r => r.LiveJson, liveJson)
            .SetProperty(r => r.Status, RunStatus.Running)
            .SetProperty(r => r.Error, (string?)null)
            .SetProperty(r => r.EndedUtcMs, (long?)null));
        return db.Runs.Where(r => r.Id == runId).Select(r => r.CancelRequested).First();
    }

    public async Task FinishAsync(long runId, RunStatus status, int completed, string? environmentJson, CachingEvidence? evidence, RunNotes? notes, string? error, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var evidenceJson = evidence is null ? null : Json.Serialize(evidence);
        var notesJson = notes is null || notes.IsEmpty ? null : Json.Serialize(notes);
        var limitsJson = await StandingLimitsAsync(db, runId, ct);
        var now = Now;
        await OwnedOrTakenBack(db, runId).ExecuteUpdateAsync(set => set
            .SetProperty(r => r.Status, status)
            .SetProperty(r => r.LimitsJson, limitsJson)
            .SetProperty(r => r.EndedUtcMs, now)
            .SetProperty(r => r.HeartbeatUtcMs, now)
            .SetProperty(r => r.CompletedRequests, completed)
            .SetProperty(r => r.LiveJson, (string?)null)
            .SetProperty(r => r.EnvironmentJson, environmentJson)
            .SetProperty(r => r.CachingEvidenceJson, evidenceJson)
            .SetProperty(r => r.NotesJson, notesJson)
            .SetProperty(r => r.Error, error), ct);
    }

    /// <summary>
    /// The limits of the run's benchmark as they stand now, stored by the write that ends the run so that no reader
    /// sees it ended without them (their verdict is stored with its summary); null for an ad-hoc run.
    /// </summary>
    static async Task<string?> StandingLimitsAsync(BenchDbContext db, long runId, CancellationToken ct)
    {
        var benchmark = await db.Runs.Where(r => r.Id == runId && r.BenchmarkId != null).Select(r => new { r.Benchmark!.ThresholdsJson }).FirstOrDefaultAsync(ct);
        return benchmark is null ? null : Core.Reports.RecordedLimits.Standing(benchmark.ThresholdsJson);
    }

    /// <summary>
    /// The outcome without environment, notes or evidence: a few bytes more than the row had, so it fits in
    /// the row's page when a full disk refuses anything that needs a new one.
    /// </summary>
    public async Task FinishBrieflyAsync(long runId, RunStatus status, int completed, string? error, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await OwnedOrTakenBack(db, runId).ExecuteUpdateAsync(set => set
            .SetProperty(r => r.Status, status)
            .SetProperty(r => r.EndedUtcMs, Now)
            .SetProperty(r => r.CompletedRequests, completed)
            .SetProperty(r => r.Error, error)
            .SetProperty(r => r.LiveJson, (string?)null), ct);
    }

    /// <summary>The run, while this runner runs it.</summary>
    IQueryable<Run> Owned(BenchDbContext db, long runId)
    {
        var runnerName = RunnerName;
        return db.Runs.Where(r => r.Id == runId && r.Status == RunStatus.Running && r.RunnerName == runnerName);
    }

    /// <summary>The run, while this runner runs it or after another ended it for a stale heartbeat (this runner takes it back).</summary>
    IQueryable<Run> OwnedOrTakenBack(BenchDbContext db, long runId)
    {
        var runnerName = RunnerName;
        return db.Runs.Where(r => r.Id == runId && r.RunnerName == runnerName
            && (r.Status == RunStatus.Running || (r.Status == RunStatus.Interrupted && r.Error!.StartsWith(StaleReasonStart))));
    }
}
