using System.Data.Common;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Runs.Packing;

namespace BenchDashboard.Core.Data;

/// <summary>
/// Stores the sample writer's batches as blocks (<see cref="SampleBlock"/>). Each batch is committed as it comes, so
/// a kill loses only what was not committed, as with rows; to keep blocks full at any rate, the last block of each
/// run and series (its tail, fewer than <see cref="SamplePacking.BlockSamples"/> samples) is held in memory and
/// packed again with the next batch's samples, replacing its row in the same transaction. One writer, one thread.
/// </summary>
public sealed class SampleBlockAppender
{
    readonly Dictionary<(long RunId, string? Series), Tail> tails = [];

    internal sealed record Tail(int FirstIndex, List<Sample> Samples);

    /// <summary>What a written batch leaves as tails; kept by <see cref="Committed"/> once its transaction commits.</summary>
    public sealed class Written
    {
        internal readonly Dictionary<(long RunId, string? Series), Tail?> Tails = [];
        public int Blocks { get; internal set; }
    }

    /// <summary>
    /// Writes the batch on the connection's <paramref name="transaction"/>. Nothing changes here until
    /// <see cref="Committed"/>: a batch that failed is written again from the same tails.
    /// </summary>
    public Written Write(DbConnection connection, DbTransaction? transaction, IReadOnlyList<Sample> batch)
    {
        var written = new Written();
        foreach (var group in batch.GroupBy(s => (s.RunId, s.Series)))
        {
            tails.TryGetValue(group.Key, out var tail);
            var samples = tail is null ? group.ToList() : [.. tail.Samples, .. group];
            SampleBlock.SortByIndex(samples); // once here, so packing and the new tail find them in order
            if (tail is not null) Delete(connection, transaction, group.Key.RunId, tail.FirstIndex);
            var blocks = SampleBlock.Pack(group.Key.RunId, samples).ToList();
            foreach (var block in blocks) Insert(connection, transaction, block);
            written.Blocks += blocks.Count;
            var last = blocks[^1];
            written.Tails[group.Key] = last.Count == SamplePacking.BlockSamples ? null
                : new Tail(last.FirstIndex, samples.GetRange(samples.Count - last.Count, last.Count));
        }
        return written;
    }

    /// <summary>The batch's transaction committed: its tails are the ones to add to next.</summary>
    public void Committed(Written written)
    {
        foreach (var (key, tail) in written.Tails)
            if (tail is null) tails.Remove(key);
            else tails[key] = tail;
    }

    static void Delete(DbConnection connection, DbTransaction? transaction, long runId, int firstIndex)
    {
        using var command = Command(connection, transaction, "DELETE FROM \"SampleBlocks\" WHERE \"RunId\" = @RunId AND \"FirstIndex\" = @FirstIndex");
        Parameter(command, "RunId", runId);
        Parameter(command, "FirstIndex", firstIndex);
        command.ExecuteNonQuery();
    }

    /// <summary>A block as a row, with plain SQL on the caller's connection and transaction (no tracked entity).</summary>
    public static void Insert(DbConnection connection, DbTransaction? transaction, SampleBlock block)
    {
        using var command = Command(connection, transaction,
            "INSERT INTO \"SampleBlocks\" (\"RunId\", \"FirstIndex\", \"Series\", \"LastIndex\", \"Count\", \"MinOffsetNs\", \"MaxOffsetNs\", \"Data\") "
            + "VALUES (@RunId, @FirstIndex, @Series, @LastIndex, @Count, @MinOffsetNs, @MaxOffsetNs, @Data)");
        Parameter(command, "RunId", block.RunId);
        Parameter(command, "FirstIndex", block.FirstIndex);
        Parameter(command, "Series", block.Series is null ? DBNull.Value : Text.StorableText.Of(block.Series));
        Parameter(command, "LastIndex", block.LastIndex);
        Parameter(command, "Count", block.Count);
        Parameter(command, "MinOffsetNs", block.MinOffsetNs);
        Parameter(command, "MaxOffsetNs", block.MaxOffsetNs);
        Parameter(command, "Data", block.Data);
        command.ExecuteNonQuery();
    }

    static DbCommand Command(DbConnection connection, DbTransaction? transaction, string sql)
    {
        var command = connection.CreateCommand();
        command.CommandText = sql;
        command.Transaction = transaction;
        return command;
    }

    static void Parameter(DbCommand command, string name, object value)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.Value = value;
        command.Parameters.Add(parameter);
    }
}
