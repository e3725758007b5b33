using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Benchmarks;

/// <summary>What an import did (or, as a dry run, would do), by benchmark name in the document's order.</summary>
public sealed record ImportResult(bool DryRun, IReadOnlyList<string> Created, IReadOnlyList<string> Updated, IReadOnlyList<string> Unchanged);

/// <summary>
/// Benchmark definitions from a file, created or updated by name, all or nothing: every definition is saved in one
/// transaction, which is rolled back if any is refused (or for a dry run), so the answer to a dry run is exactly
/// what the import would do. Errors are keyed <c>benchmarks[i].field</c> and their messages name the benchmark.
/// </summary>
public sealed class BenchmarkImport(BenchDbContext db, BenchmarkDefinitions definitions)
{
    /// <param name="inputs">The document's benchmarks in order; null for one that could not be read (its errors are the caller's), which makes the import fail.</param>
    public async Task<(ImportResult? Result, Dictionary<string, string[]> Errors)> ImportAsync(IReadOnlyList<BenchmarkInput?> inputs, bool dryRun, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        var firstOfName = new Dictionary<string, int>(StringComparer.Ordinal);
        for (var i = 0; i < inputs.Count; i++)
            if (inputs[i]?.Name?.Trim() is { Length: > 0 } name && !firstOfName.TryAdd(name, i))
                errors[$"benchmarks[{i}].name"] = [$"'{name}' is also benchmarks[{firstOfName[name]}]: a document defines each benchmark once."];

        List<string> created = [], updated = [], unchanged = [];
        await using var transaction = await db.Database.BeginTransactionAsync(ct);
        var existing = await db.Benchmarks.AsNoTracking().ToDictionaryAsync(b => b.Name, ct);
        for (var i = 0; i < inputs.Count; i++)
        {
            if (inputs[i] is not { } input || errors.ContainsKey($"benchmarks[{i}].name")) continue;
            var name = input.Name?.Trim() ?? "";
            var before = existing.GetValueOrDefault(name);
            var (saved, refused) = await definitions.SaveAsync(before?.Id, input, ct);
            var label = name.Length > 0 ? $"'{name}'" : $"benchmarks[{i}]";
            foreach (var (field, messages) in refused)
                errors[$"benchmarks[{i}].{BenchmarkDefinitions.ApiField(field)}"] = messages.Select(m => $"{label}: {m}").ToArray();
            if (saved is null) continue;
            (before is null ? created : BenchmarkDefinition.Of(before) == BenchmarkDefinition.Of(saved) ? unchanged : updated).Add(saved.Name);
        }
        if (errors.Count > 0 || dryRun || inputs.Any(i => i is null))
        {
            await transaction.RollbackAsync(ct);
            db.ChangeTracker.Clear(); // what was added or changed is not in the database: nothing may save it later
            return errors.Count > 0 || inputs.Any(i => i is null) ? (null, errors) : (new ImportResult(true, created, updated, unchanged), errors);
        }
        await transaction.CommitAsync(ct);
        return (new ImportResult(false, created, updated, unchanged), errors);
    }
}
