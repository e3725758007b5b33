using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

public enum DefinitionOutcome
{
    /// <summary>Stored (or deleted).</summary>
    Done,
    NotFound,
    /// <summary>The caller's If-Match named another version: nothing was written.</summary>
    Stale,
    /// <summary>Field errors: nothing was written.</summary>
    Invalid,
}

public sealed record DefinitionWrite(DefinitionOutcome Outcome, Benchmark? Benchmark = null, IReadOnlyDictionary<string, string[]>? Errors = null);

/// <summary>
/// Saved benchmarks created, replaced and deleted as whole definitions (the API's), with optimistic concurrency:
/// a write given the entity tags the caller last saw (<c>If-Match</c>) happens only if the stored definition still
/// has one of them, checked in the write's own transaction. Validation is <see cref="BenchmarkStore"/>'s, the
/// form's, with its errors keyed by the API's field names (<see cref="ApiField"/>).
/// </summary>
public sealed class BenchmarkDefinitions(BenchDbContext db, BenchmarkStore store, Security.ParameterDisplay display)
{
    /// <summary>The benchmark's entity tag (<see cref="BenchmarkDefinition.ETag"/>), quoted, for an ETag header.</summary>
    public string ETagOf(Benchmark benchmark) => BenchmarkDefinition.Of(benchmark).ETag(display);

    public Task<DefinitionWrite> CreateAsync(BenchmarkInput input, CancellationToken ct) => WriteAsync(null, input, null, ct);

    /// <param name="ifMatch">The tags of an If-Match header ("*" for any); null when it had none.</param>
    public Task<DefinitionWrite> ReplaceAsync(int id, BenchmarkInput input, IReadOnlyCollection<string>? ifMatch, CancellationToken ct) => WriteAsync(id, input, ifMatch, ct);

    /// <summary>Deletes a benchmark; its runs stay, with its name (<see cref="Runs.Run.BenchmarkName"/>), and its A/A checks go.</summary>
    public async Task<DefinitionOutcome> DeleteAsync(int id, IReadOnlyCollection<string>? ifMatch, CancellationToken ct)
    {
        await using var transaction = await db.Database.BeginTransactionAsync(ct);
        if (await db.Benchmarks.AsNoTracking().FirstOrDefaultAsync(b => b.Id == id, ct) is not { } benchmark) return DefinitionOutcome.NotFound;
        if (!Matches(benchmark, ifMatch)) return DefinitionOutcome.Stale;
        await db.Runs.Where(r => r.BenchmarkId == id).ExecuteUpdateAsync(set => set.SetProperty(r => r.BenchmarkName, benchmark.Name), ct);
        await db.Benchmarks.Where(b => b.Id == id).ExecuteDeleteAsync(ct);
        await transaction.CommitAsync(ct);
        return DefinitionOutcome.Done;
    }

    /// <summary>
    /// Saves through the store inside a transaction of its own (or the caller's), which the store's writes join.
    /// SQLite's transactions here begin immediately (a write lock), so no other write falls between check and write.
    /// </summary>
    async Task<DefinitionWrite> WriteAsync(int? id, BenchmarkInput input, IReadOnlyCollection<string>? ifMatch, CancellationToken ct)
    {
        await using var transaction = await db.Database.BeginTransactionAsync(ct);
        if (id is { } existing)
        {
            if (await db.Benchmarks.AsNoTracking().FirstOrDefaultAsync(b => b.Id == existing, ct) is not { } before) return new(DefinitionOutcome.NotFound);
            if (!Matches(before, ifMatch)) return new(DefinitionOutcome.Stale);
        }
        var (saved, errors) = await SaveAsync(id, input, ct);
        if (saved is null) return new(DefinitionOutcome.Invalid, Errors: errors.ToDictionary(e => ApiField(e.Key), e => e.Value));
        await transaction.CommitAsync(ct);
        return new(DefinitionOutcome.Done, saved);
    }

    /// <summary>A whole replacement: what the input leaves out takes its default (UTC, no limits).</summary>
    internal Task<(Benchmark? Saved, Dictionary<string, string[]> Errors)> SaveAsync(int? id, BenchmarkInput input, CancellationToken ct) =>
        store.SaveAsync(id, input.Name ?? "", input.Parameters, input.Schedule, input.Enabled, ct, input.Thresholds ?? Thresholds.None, input.Agents, input.TimeZone ?? "",
            input.Webhooks ?? [], input.OnEach);

    /// <summary>As <see cref="SaveAsync"/>, validated and put in the context but not written (an import writes all at once).</summary>
    internal async Task<(Benchmark? Pending, Dictionary<string, string[]> Errors)> PrepareAsync(int? id, BenchmarkInput input, CancellationToken ct)
    {
        var (pending, errors, _) = await store.PrepareAsync(id, input.Name ?? "", input.Parameters, input.Schedule, input.Enabled, ct, input.Thresholds ?? Thresholds.None,
            input.Agents, input.TimeZone ?? "", input.Webhooks ?? [], input.OnEach);
        return (pending, errors);
    }

    /// <summary>Writes what <see cref="PrepareAsync"/> put in the context, in one statement batch.</summary>
    internal Task<Dictionary<string, string[]>?> SaveChangesAsync(CancellationToken ct) => store.SaveChangesAsync(ct);

    bool Matches(Benchmark benchmark, IReadOnlyCollection<string>? ifMatch) =>
        ifMatch is null || ifMatch.Contains("*") || ifMatch.Contains(ETagOf(benchmark));

    static readonly HashSet<string> ThresholdFields =
        ["maxMedianMs", "maxP95Ms", "maxP99Ms", "maxErrorPercent", "minRequestsPerSecond", "latency", "changeMarginPercent", "confirmRuns"];

    /// <summary>
    /// The store's error keys as the API's fields: its own settings at the top ("cronSchedule" is "schedule"),
    /// a limit under "thresholds.", everything else the kind's, under "parameters.".
    /// </summary>
    public static string ApiField(string key) => key.Split('[', '.')[0] switch
    {
        "cronSchedule" => "schedule",
        "webhookUrls" => "webhooks",
        "name" or "timeZone" or "agents" or "onEach" or "rounds" or "kind" or "id" => key,
        var field when ThresholdFields.Contains(field) => $"thresholds.{key}",
        _ => $"parameters.{key}",
    };
}
