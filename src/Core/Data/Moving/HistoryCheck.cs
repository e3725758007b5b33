using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Data.Moving;

/// <summary>
/// After a move: every table's rows of the source are in the target, counted per table and, for every per-run table,
/// per run. Samples are counted as samples, whether a run holds them in blocks (each block's count) or in rows from
/// before blocks, so the line "Samples" and a run's mismatch say how many samples, not how many blocks. Rows the
/// target had of its own are not counted (it may be in use already).
/// </summary>
public static class HistoryCheck
{
    public static async Task<CheckResult> RunAsync(IServiceProvider source, IServiceProvider target, CancellationToken ct = default)
    {
        await using var sourceScope = source.CreateAsyncScope();
        await using var targetScope = target.CreateAsyncScope();
        var from = sourceScope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var to = targetScope.ServiceProvider.GetRequiredService<BenchDbContext>();
        var tables = new HistoryTables(from.Model);
        var counts = new List<TableCount>();
        var mismatches = new List<string>();

        foreach (var type in tables.Shared.Append(tables.Runs))
        {
            var ours = await HistoryTables.KeysAsync(from, type, ct);
            var theirs = await HistoryTables.KeysAsync(to, type, ct);
            var found = ours.Count(theirs.Contains);
            counts.Add(new TableCount(HistoryTables.Table(type), ours.Count, found));
            if (found != ours.Count) mismatches.Add($"{HistoryTables.Table(type)}: {ours.Count - found:N0} of the source's {ours.Count:N0} rows are missing in the target");
        }

        var runIds = (await HistoryTables.KeysAsync(from, tables.Runs, ct)).Select(long.Parse).Order().ToList();
        var samples = (Table: HistoryTables.Table(tables.Samples), Ours: await HistoryTables.SamplesPerRunAsync(from, tables, ct), Theirs: await HistoryTables.SamplesPerRunAsync(to, tables, ct));
        var perRun = new List<(string, Dictionary<long, long>, Dictionary<long, long>)> { samples };
        foreach (var (type, toRun) in tables.PerRun.Where(p => p.Type != tables.SampleBlocks))
            perRun.Add((HistoryTables.Table(type), await HistoryTables.CountsPerRunAsync(from, type, toRun, ct), await HistoryTables.CountsPerRunAsync(to, type, toRun, ct)));
        foreach (var (table, ours, theirs) in perRun)
        {
            long total = 0, found = 0;
            foreach (var id in runIds)
            {
                var expected = ours.GetValueOrDefault(id);
                var actual = theirs.GetValueOrDefault(id);
                total += expected;
                found += actual;
                if (actual != expected)
                    mismatches.Add($"{table} of run {id}: {expected:N0} in the source, {actual:N0} in the target");
            }
            counts.Add(new TableCount(table, total, found));
        }
        return new CheckResult(counts, mismatches);
    }
}

/// <summary>
/// A table's rows in the source and, of those, in the target (for per-run tables: rows of the source's runs; for
/// "Samples": samples of the source's runs, in blocks and rows).
/// </summary>
public sealed record TableCount(string Table, long Source, long Target);

public sealed record CheckResult(IReadOnlyList<TableCount> Counts, IReadOnlyList<string> Mismatches)
{
    public bool Passed => Mismatches.Count == 0;
}
