using BenchDashboard.Core;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Scheduling;

/// <summary>
/// The runner's writes to the Runs table. Status changes are conditional UPDATEs so that several runner
/// processes sharing one database never claim the same run or overwrite each other's outcome.
/// </summary>
public sealed class RunStore(IServiceScopeFactory scopes, TimeProvider time, IOptions<RunnerOptions> options)
{
    public string RunnerName { get; } = $"{Environment.MachineName}/{Environment.ProcessId}";

    long Now => time.GetUtcNow().ToUnixTimeMilliseconds();

    /// <summary>Claims the oldest queued run, or returns null when none is waiting.</summary>
    public async Task<Run?> TryClaimAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        while (true)
        {
            var candidate = await db.Runs.Where(r => r.Status == RunStatus.Queued).OrderBy(r => r.Id).Select(r => (long?)r.Id).FirstOrDefaultAsync(ct);
            if (candidate is not { } id) return null;
            var now = Now;
            var claimed = await db.Database.ExecuteSqlInterpolatedAsync(
                $"UPDATE Runs SET Status = 'Running', StartedUtcMs = {now}, HeartbeatUtcMs = {now}, RunnerName = {RunnerName} WHERE Id = {id} AND Status = 'Queued'", ct);
            if (claimed == 1) return await db.Runs.AsNoTracking().FirstAsync(r => r.Id == id, ct);
            // Another runner (or a cancel) got there first; look again.
        }
    }

    /// <summary>Marks runs whose runner stopped sending heartbeats as interrupted; returns how many.</summary>
    public async Task<int> MarkInterruptedAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var now = Now;
        var staleBefore = now - options.Value.StaleAfterSeconds * 1000L;
        var message = $"The runner stopped without finishing this run (no heartbeat for {options.Value.StaleAfterSeconds} s). Samples stored before that are kept.";
        return await db.Database.ExecuteSqlInterpolatedAsync(
            $"UPDATE Runs SET Status = 'Interrupted', EndedUtcMs = {now}, Error = {message} WHERE Status = 'Running' AND (HeartbeatUtcMs IS NULL OR HeartbeatUtcMs < {staleBefore})", ct);
    }

    /// <summary>Refreshes the heartbeat and progress of a run this runner owns; returns whether a cancel was requested.</summary>
    public async Task<bool> HeartbeatAsync(long runId, int completed, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await db.Database.ExecuteSqlInterpolatedAsync(
            $"UPDATE Runs SET HeartbeatUtcMs = {Now}, CompletedRequests = {completed} WHERE Id = {runId} AND Status = 'Running' AND RunnerName = {RunnerName}", ct);
        return await db.Runs.Where(r => r.Id == runId).Select(r => r.CancelRequested).FirstAsync(ct);
    }

    public async Task FinishAsync(long runId, RunStatus status, int completed, string? environmentJson, CachingEvidence? evidence, RunNotes? notes, string? error, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var statusName = status.ToString();
        var evidenceJson = evidence is null ? null : Json.Serialize(evidence);
        var notesJson = notes is null || notes.IsEmpty ? null : Json.Serialize(notes);
        await db.Database.ExecuteSqlInterpolatedAsync(
            $"""
            UPDATE Runs SET Status = {statusName}, EndedUtcMs = {Now}, HeartbeatUtcMs = {Now}, CompletedRequests = {completed},
                EnvironmentJson = {environmentJson}, CachingEvidenceJson = {evidenceJson}, NotesJson = {notesJson}, Error = {error}
            WHERE Id = {runId} AND Status = 'Running' AND RunnerName = {RunnerName}
            """, ct);
    }

    /// <summary>
    /// The outcome without environment, notes or evidence: a few bytes more than the row had, so it fits in
    /// the row's page when a full disk refuses anything that needs a new one.
    /// </summary>
    public async Task FinishBrieflyAsync(long runId, RunStatus status, int completed, string? error, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var statusName = status.ToString();
        await db.Database.ExecuteSqlInterpolatedAsync(
            $"UPDATE Runs SET Status = {statusName}, EndedUtcMs = {Now}, CompletedRequests = {completed}, Error = {error} WHERE Id = {runId} AND Status = 'Running' AND RunnerName = {RunnerName}", ct);
    }
}
