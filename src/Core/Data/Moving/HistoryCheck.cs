using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Core.Data.Moving;

/// <summary>
/// After a move: every table's rows of the source are in the target, counted per table and, for samples and every
/// other per-run table, per run. Rows the target had of its own are not counted (it may be in use already).
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
        var samplesToRun = tables.Samples.GetForeignKeys().Single(k => k.PrincipalEntityType == tables.Runs);
        foreach (var (type, toRun) in tables.PerRun.Prepend((tables.Samples, samplesToRun)))
        {
            var ours = await HistoryTables.CountsPerRunAsync(from, type, toRun, ct);
            var theirs = await HistoryTables.CountsPerRunAsync(to, type, toRun, ct);
            long total = 0, found = 0;
            foreach (var id in runIds)
            {
                var expected = ours.GetValueOrDefault(id);
                var actual = theirs.GetValueOrDefault(id);
                total += expected;
                found += actual;
                if (actual != expected)
                    mismatches.Add($"{HistoryTables.Table(type)} of run {id}: {expected:N0} in the source, {actual:N0} in the target");
            }
            counts.Add(new TableCount(HistoryTables.Table(type), total, found));
        }
        return new CheckResult(counts, mismatches);
    }
}

/// <summary>A table's rows in the source and, of those, in the target (for per-run tables: rows of the source's runs).</summary>
public sealed record TableCount(string Table, long Source, long Target);

public sealed record CheckResult(IReadOnlyList<TableCount> Counts, IReadOnlyList<string> Mismatches)
{
    public bool Passed => Mismatches.Count == 0;
}
