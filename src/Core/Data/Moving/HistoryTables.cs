using System.Data.Common;
using System.Globalization;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata;
using Microsoft.EntityFrameworkCore.Storage;

namespace BenchDashboard.Core.Data.Moving;

/// <summary>
/// The model's tables as a history move sees them, read from the EF model so that a table added later moves too:
/// <see cref="Shared"/> tables (benchmarks, A/A checks: not one run's) in an order that puts every principal before
/// its dependents, and <see cref="PerRun"/> tables (digests, latencies, webhook deliveries: a foreign key to a run),
/// moved in the run's transaction: sample blocks among them. Samples still in rows (a history not converted to blocks)
/// are per run but go by COPY, so they are apart.
/// </summary>
public sealed class HistoryTables
{
    public IReadOnlyList<IEntityType> Shared { get; }
    public IReadOnlyList<(IEntityType Type, IForeignKey ToRun)> PerRun { get; }
    public IEntityType Runs { get; }
    public IEntityType Samples { get; }

    /// <summary>Among <see cref="PerRun"/>: moved as rows, but what they hold is counted as samples.</summary>
    public IEntityType SampleBlocks { get; }

    /// <summary>
    /// An installation's own keys (the sign-in key ring, the fingerprint key) are not history: the target keeps its
    /// own, which its dashboards already use; a target's fingerprints of moved runs are its key's.
    /// </summary>
    static readonly Type[] InstallationsOwn = [typeof(KeyRingElement), typeof(Security.InstallationKey)];

    /// <summary>Whether a move copies the table's rows: every table but an installation's own keys.</summary>
    public static bool IsHistory(IEntityType type) => !InstallationsOwn.Contains(type.ClrType);

    public HistoryTables(IModel model)
    {
        Runs = model.FindEntityType(typeof(Run))!;
        Samples = model.FindEntityType(typeof(Sample))!;
        SampleBlocks = model.FindEntityType(typeof(SampleBlock))!;
        var perRun = new List<(IEntityType, IForeignKey)>();
        var shared = new List<IEntityType>();
        foreach (var type in model.GetEntityTypes().Where(t => t != Runs && t != Samples && !t.IsOwned() && IsHistory(t)))
        {
            var toRun = type.GetForeignKeys().Where(k => k.PrincipalEntityType == Runs).ToList();
            if (toRun.Count > 1 || type.GetForeignKeys().Any(k => k.PrincipalEntityType != Runs && k.PrincipalEntityType.GetForeignKeys().Any(p => p.PrincipalEntityType == Runs)))
                throw new NotSupportedException($"The history move does not know how to move {type.DisplayName()}: it hangs off a run in more than one way");
            if (toRun.Count == 1) perRun.Add((type, toRun[0]));
            else shared.Add(type);
        }
        if (shared.Concat(perRun.Select(p => p.Item1)).Any(t => t.FindPrimaryKey() is null))
            throw new NotSupportedException("The history move needs a primary key on every table");
        PerRun = perRun;
        Shared = PrincipalsFirst(shared);
    }

    static List<IEntityType> PrincipalsFirst(List<IEntityType> types)
    {
        var ordered = new List<IEntityType>();
        while (ordered.Count < types.Count)
        {
            var next = types.FirstOrDefault(t => !ordered.Contains(t)
                && t.GetForeignKeys().All(k => k.PrincipalEntityType == t || ordered.Contains(k.PrincipalEntityType) || !types.Contains(k.PrincipalEntityType)))
                ?? throw new NotSupportedException("The history move cannot order tables that refer to each other in a cycle");
            ordered.Add(next);
        }
        return ordered;
    }

    public static string Table(IEntityType type) => type.GetTableName()!;

    static string Column(IEntityType type, IProperty property) =>
        property.GetColumnName(StoreObjectIdentifier.Table(Table(type), type.GetSchema()))!;

    /// <summary>An entity's primary key as one comparable string (the same on both providers).</summary>
    public static string KeyOf(IEntityType type, object entity) =>
        string.Join('\u001f', type.FindPrimaryKey()!.Properties.Select(p => Text(p.GetGetter().GetClrValueUsingContainingEntity(entity), p)));

    static string Text(object? value, IProperty property)
    {
        if (value is not null && property.GetValueConverter() is { } converter) value = converter.ConvertToProvider(value);
        return Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
    }

    /// <summary>The primary keys of every row of a table, read with plain SQL (a table of any size, no entities).</summary>
    public static async Task<HashSet<string>> KeysAsync(BenchDbContext db, IEntityType type, CancellationToken ct)
    {
        var columns = type.FindPrimaryKey()!.Properties.Select(p => $"\"{Column(type, p)}\"").ToList();
        var keys = new HashSet<string>();
        await ReadAsync(db, $"SELECT {string.Join(", ", columns)} FROM \"{Table(type)}\"", reader =>
        {
            keys.Add(string.Join('\u001f', Enumerable.Range(0, columns.Count).Select(i => Convert.ToString(reader.GetValue(i), CultureInfo.InvariantCulture))));
        }, ct);
        return keys;
    }

    /// <summary>Rows per run of a per-run table (or of <see cref="Samples"/>), in one grouped query.</summary>
    public static async Task<Dictionary<long, long>> CountsPerRunAsync(BenchDbContext db, IEntityType type, IForeignKey toRun, CancellationToken ct)
    {
        var column = Column(type, toRun.Properties[0]);
        var counts = new Dictionary<long, long>();
        await ReadAsync(db, $"SELECT \"{column}\", COUNT(*) FROM \"{Table(type)}\" GROUP BY \"{column}\"",
            reader => counts[Convert.ToInt64(reader.GetValue(0))] = Convert.ToInt64(reader.GetValue(1)), ct);
        return counts;
    }

    /// <summary>Samples per run: the counts of its blocks plus its rows from before blocks (a run may have both).</summary>
    public static async Task<Dictionary<long, long>> SamplesPerRunAsync(BenchDbContext db, HistoryTables tables, CancellationToken ct)
    {
        var counts = await CountsPerRunAsync(db, tables.Samples, tables.Samples.GetForeignKeys().Single(k => k.PrincipalEntityType == tables.Runs), ct);
        var blocks = tables.SampleBlocks;
        var runColumn = Column(blocks, blocks.GetForeignKeys().Single(k => k.PrincipalEntityType == tables.Runs).Properties[0]);
        var countColumn = Column(blocks, blocks.FindProperty(nameof(SampleBlock.Count))!);
        await ReadAsync(db, $"SELECT \"{runColumn}\", SUM(\"{countColumn}\") FROM \"{Table(blocks)}\" GROUP BY \"{runColumn}\"", reader =>
        {
            var runId = Convert.ToInt64(reader.GetValue(0));
            counts[runId] = counts.GetValueOrDefault(runId) + Convert.ToInt64(reader.GetValue(1));
        }, ct);
        return counts;
    }

    static async Task ReadAsync(BenchDbContext db, string sql, Action<DbDataReader> row, CancellationToken ct)
    {
        var connection = db.Database.GetDbConnection();
        await db.Database.OpenConnectionAsync(ct);
        try
        {
            await using var command = connection.CreateCommand();
            command.CommandText = sql;
            command.Transaction = db.Database.CurrentTransaction?.GetDbTransaction();
            await using var reader = await command.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct)) row(reader);
        }
        finally
        {
            await db.Database.CloseConnectionAsync();
        }
    }
}
