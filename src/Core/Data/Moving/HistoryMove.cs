using System.Reflection;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;

namespace BenchDashboard.Core.Data.Moving;

/// <summary>
/// Copies a SQLite history into PostgreSQL, keeping every id so that links and A/A checks still point where they
/// did. Shared tables first (rows whose key the target lacks), then one transaction per run: the run, its samples
/// (binary COPY) and its per-run rows, so a run is in the target completely or not at all. An interrupted move is
/// continued by starting it again: runs already in the target are skipped. Both databases must be at this build's
/// schema: the caller migrates them first.
/// </summary>
public sealed class HistoryMove(IServiceProvider source, IServiceProvider target)
{
    /// <summary>Samples read from SQLite and streamed into one COPY per run, checking for cancellation this often.</summary>
    const int CancelCheckEvery = 10_000;

    /// <summary>Called after each run is committed in the target: its id, samples, and how many runs are done of how many.</summary>
    public Action<long, long, int, int>? RunMoved { get; init; }

    public async Task<MoveResult> MoveAsync(CancellationToken ct = default)
    {
        await using var sourceScope = source.CreateAsyncScope();
        var from = sourceScope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var tables = new HistoryTables(from.Model);
        var alreadyThere = await RefuseDifferentHistoryAsync(from, ct);

        var shared = new Dictionary<string, int>();
        await using (var scope = target.CreateAsyncScope())
        {
            var to = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
            await using var transaction = await to.Database.BeginTransactionAsync(ct);
            foreach (var type in tables.Shared)
                shared[HistoryTables.Table(type)] = await Generic(nameof(CopyMissingAsync), type, from, to, type, ct);
            await transaction.CommitAsync(ct);
        }

        // Every id the source holds is reserved before the first run moves, so a dashboard already on the target
        // never takes one that a run still to move will need (a move interrupted and started again included).
        await FixIdentitySequencesAsync(from, tables, ct);
        var runIds = await from.Runs.OrderBy(r => r.Id).Select(r => r.Id).ToListAsync(ct);
        int moved = 0, done = 0;
        Exception? failure = null;
        try
        {
            foreach (var id in runIds)
            {
                done++;
                if (alreadyThere.Contains(id)) continue;
                var samples = await MoveRunAsync(from, tables, id, ct);
                moved++;
                RunMoved?.Invoke(id, samples, done, runIds.Count);
            }
        }
        catch (Exception ex)
        {
            failure = ex;
            throw;
        }
        finally
        {
            // Interrupted too: a dashboard already on the target must not be handed an id a moved run holds.
            try { await FixIdentitySequencesAsync(from, tables, CancellationToken.None); }
            catch (Exception) when (failure is not null) { } // the server that failed the move fails this too: its reason matters
        }
        return new MoveResult(moved, runIds.Count - moved, shared);
    }

    /// <summary>
    /// The target's runs and benchmarks under the source's ids must be the same ones (a move started before), and no
    /// source benchmark's name may belong to another benchmark there. Returns the ids of runs already moved.
    /// </summary>
    async Task<HashSet<long>> RefuseDifferentHistoryAsync(BenchDbContext from, CancellationToken ct)
    {
        await using var scope = target.CreateAsyncScope();
        var to = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var theirs = await to.Runs.Select(r => new { r.Id, r.Kind, r.QueuedUtcMs, r.ParametersJson }).ToDictionaryAsync(r => r.Id, ct);
        var ours = await from.Runs.Select(r => new { r.Id, r.Kind, r.QueuedUtcMs, r.ParametersJson }).ToListAsync(ct);
        var clash = ours.Where(r => theirs.TryGetValue(r.Id, out var t) && !t.Equals(r)).Select(r => r.Id).ToList();
        if (clash.Count > 0)
            throw new HistoryMoveRefused($"the target already holds other runs under the ids of {clash.Count} of this history's runs " +
                $"(run {string.Join(", ", clash.Take(5))}{(clash.Count > 5 ? ", …" : "")}): moving would mix two histories. Move into an empty database");

        var theirBenchmarks = await to.Benchmarks.Select(b => new { b.Id, b.Name, b.Kind, b.CreatedUtcMs }).ToListAsync(ct);
        foreach (var b in await from.Benchmarks.Select(b => new { b.Id, b.Name, b.Kind, b.CreatedUtcMs }).ToListAsync(ct))
        {
            if (theirBenchmarks.FirstOrDefault(t => t.Id == b.Id) is { } same && (same.Kind != b.Kind || same.CreatedUtcMs != b.CreatedUtcMs))
                throw new HistoryMoveRefused($"the target's benchmark {b.Id} ({same.Name}) is not this history's benchmark {b.Id} ({b.Name}). Move into an empty database");
            if (theirBenchmarks.FirstOrDefault(t => t.Name == b.Name && t.Id != b.Id) is { } named)
                throw new HistoryMoveRefused($"the target has a benchmark named \"{b.Name}\" under another id ({named.Id}, here {b.Id}). Move into an empty database");
        }
        return ours.Where(r => theirs.ContainsKey(r.Id)).Select(r => r.Id).ToHashSet();
    }

    async Task<long> MoveRunAsync(BenchDbContext from, HistoryTables tables, long id, CancellationToken ct)
    {
        await using var scope = target.CreateAsyncScope();
        var to = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await using var transaction = await to.Database.BeginTransactionAsync(ct);
        to.Runs.Add(await from.Runs.AsNoTracking().SingleAsync(r => r.Id == id, ct));
        await to.SaveChangesAsync(ct);

        var rows = from.Samples.AsNoTracking().Where(s => s.RunId == id).OrderBy(s => s.Index).AsEnumerable();
        var samples = await Task.Run(() => SampleCopy.Write((NpgsqlConnection)to.Database.GetDbConnection(), CheckingCancellation(rows, ct)), ct);

        foreach (var (type, toRun) in tables.PerRun)
            await Generic(nameof(CopyRunRowsAsync), type, from, to, toRun, id, ct);
        await transaction.CommitAsync(ct);
        // Said as samples, as the check counts them: those in rows and those in its blocks.
        return samples + await from.SampleBlocks.Where(b => b.RunId == id).SumAsync(b => (long)b.Count, ct);
    }

    static IEnumerable<Sample> CheckingCancellation(IEnumerable<Sample> samples, CancellationToken ct)
    {
        var n = 0;
        foreach (var sample in samples)
        {
            if (++n % CancelCheckEvery == 0) ct.ThrowIfCancellationRequested();
            yield return sample;
        }
    }

    static async Task<int> CopyMissingAsync<T>(BenchDbContext from, BenchDbContext to, IEntityType type, CancellationToken ct) where T : class
    {
        var present = await HistoryTables.KeysAsync(to, type, ct);
        var missing = (await from.Set<T>().AsNoTracking().ToListAsync(ct)).Where(row => !present.Contains(HistoryTables.KeyOf(type, row))).ToList();
        to.Set<T>().AddRange(missing);
        await to.SaveChangesAsync(ct);
        to.ChangeTracker.Clear();
        return missing.Count;
    }

    static async Task<int> CopyRunRowsAsync<T>(BenchDbContext from, BenchDbContext to, IForeignKey toRun, long runId, CancellationToken ct) where T : class
    {
        var column = toRun.Properties[0].Name;
        var rows = await from.Set<T>().AsNoTracking().Where(row => EF.Property<long>(row, column) == runId).ToListAsync(ct);
        to.Set<T>().AddRange(rows);
        await to.SaveChangesAsync(ct);
        return rows.Count;
    }

    /// <summary>
    /// Explicit ids do not advance PostgreSQL's identity sequences: without this the next run created in the
    /// target would be given id 1 and fail as a duplicate. Each sequence goes past the highest id of the target
    /// and of the source, moved yet or not.
    /// </summary>
    async Task FixIdentitySequencesAsync(BenchDbContext from, HistoryTables tables, CancellationToken ct)
    {
        await using var scope = target.CreateAsyncScope();
        var to = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        foreach (var type in tables.Shared.Append(tables.Runs).Concat(tables.PerRun.Select(p => p.Type)))
        {
            if (type.FindPrimaryKey()!.Properties is not [var key] || key.ValueGenerated != ValueGenerated.OnAdd || key.ClrType != typeof(int) && key.ClrType != typeof(long))
                continue;
            var table = HistoryTables.Table(type);
            var column = key.GetColumnName();
#pragma warning disable EF1002 // names from the model, not input
            var sourceMax = await from.Database.SqlQueryRaw<long>($"SELECT COALESCE(MAX(\"{column}\"), 0) AS \"Value\" FROM \"{table}\"").SingleAsync(ct);
            await to.Database.ExecuteSqlRawAsync(
                $"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'), GREATEST(COALESCE(MAX(\"{column}\"), 0), {sourceMax}, 1), GREATEST(COALESCE(MAX(\"{column}\"), 0), {sourceMax}) > 0) FROM \"{table}\"", ct);
#pragma warning restore EF1002
        }
    }

    /// <summary>One of the generic copies above for a table known from the model only.</summary>
    static Task<int> Generic(string method, IEntityType type, params object[] arguments) =>
        (Task<int>)typeof(HistoryMove).GetMethod(method, BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(type.ClrType).Invoke(null, arguments)!;
}

/// <summary>What a move did: runs moved now, runs found already moved, rows added per shared table.</summary>
public sealed record MoveResult(int RunsMoved, int RunsAlreadyThere, IReadOnlyDictionary<string, int> SharedRowsAdded);

/// <summary>The target holds a different history under the same ids: nothing was moved.</summary>
public sealed class HistoryMoveRefused(string message) : Exception(message);
