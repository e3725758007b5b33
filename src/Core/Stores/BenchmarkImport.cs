using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Data;
using Microsoft.EntityFrameworkCore;

namespace BenchDashboard.Core.Stores;

/// <summary>What an import did (or, as a dry run, would do), by benchmark name in the document's order.</summary>
public sealed record ImportResult(bool DryRun, IReadOnlyList<string> Created, IReadOnlyList<string> Updated, IReadOnlyList<string> Unchanged);

/// <summary>
/// Benchmark definitions from a file, created or updated by name, all or nothing. Every definition is validated first,
/// with nothing written and no lock held; only when all are valid (and it is not a dry run) are they written, in one
/// short transaction. A run that is storing samples meanwhile waits for that write alone (milliseconds for a thousand),
/// not for the validation of the whole document. Errors are keyed <c>benchmarks[i].field</c> and name the benchmark.
/// </summary>
public sealed class BenchmarkImport(BenchDbContext db, BenchmarkDefinitions definitions)
{
    /// <summary>Benchmarks in one document at most: a larger file is split, so no single write holds the store for long.</summary>
    public const int MaxBenchmarks = 2_000;

    /// <param name="inputs">The document's benchmarks in order; null for one that could not be read (its errors are the caller's), which makes the import fail.</param>
    public async Task<(ImportResult? Result, Dictionary<string, string[]> Errors)> ImportAsync(IReadOnlyList<BenchmarkInput?> inputs, bool dryRun, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        if (inputs.Count > MaxBenchmarks)
            return (null, new() { ["benchmarks"] = [$"A document holds at most {MaxBenchmarks:N0} benchmarks; this one has {inputs.Count:N0}. Import it in parts."] });
        var firstOfName = new Dictionary<string, int>(StringComparer.Ordinal);
        for (var i = 0; i < inputs.Count; i++)
            if (inputs[i]?.Name is { } given && Text.Names.Normalize(given) is { Length: > 0 } name && !firstOfName.TryAdd(name, i))
                errors[$"benchmarks[{i}].name"] = [$"'{name}' is also benchmarks[{firstOfName[name]}]: a document defines each benchmark once."];

        List<string> created = [], updated = [], unchanged = [];
        var existing = await db.Benchmarks.AsNoTracking().ToDictionaryAsync(b => b.Name, ct);
        try
        {
            for (var i = 0; i < inputs.Count; i++)
            {
                if (inputs[i] is not { } input || errors.ContainsKey($"benchmarks[{i}].name")) continue;
                var name = Text.Names.Normalize(input.Name ?? "");
                var before = existing.GetValueOrDefault(name);
                var (pending, refused) = await definitions.PrepareAsync(before?.Id, input, ct);
                var label = name.Length > 0 ? $"'{name}'" : $"benchmarks[{i}]";
                foreach (var (field, messages) in refused)
                    errors[$"benchmarks[{i}].{BenchmarkDefinitions.ApiField(field)}"] = messages.Select(m => $"{label}: {m}").ToArray();
                if (pending is null) continue;
                (before is null ? created : BenchmarkDefinition.Of(before) == BenchmarkDefinition.Of(pending) ? unchanged : updated).Add(pending.Name);
            }
            if (errors.Count > 0 || inputs.Any(i => i is null)) return (null, errors);
            if (dryRun) return (new ImportResult(true, created, updated, unchanged), errors);

            await using var transaction = await db.Database.BeginTransactionAsync(ct);
            if (await definitions.SaveChangesAsync(ct) is { } taken)
                return (null, taken.ToDictionary(e => $"benchmarks.{e.Key}", e => e.Value.Select(m => $"{m} (created by another request during this import)").ToArray()));
            await transaction.CommitAsync(ct);
            return (new ImportResult(false, created, updated, unchanged), errors);
        }
        finally
        {
            db.ChangeTracker.Clear(); // what was not written must not be written by a later save on this context
        }
    }
}
