using System.Data.Common;
using System.Threading.Channels;
using BenchDashboard.Core.Data;
using BenchDashboard.Core.Runs;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.DependencyInjection;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Drains a run's sample channel into the database in batches, off the measurement path. Samples are
/// inserted with one prepared command per batch on EF Core's own connection and transaction: tracked
/// entities cost 53 µs of CPU per sample (bench/README.md), which on a 2-core machine took most of a core
/// from the requests being measured; the prepared insert costs 9 µs. The schema is still EF's. A commit has a
/// cost of its own, so a batch that was not full is followed by a pause of <paramref name="flushInterval"/>:
/// at 7,000 samples/s in ones and twos the commits alone took the CPU that Redis and the client needed.
/// </summary>
public sealed class SampleWriter(IServiceScopeFactory scopes, int batchSize, TimeSpan flushInterval)
{
    readonly Channel<Sample> channel = Channel.CreateUnbounded<Sample>(new UnboundedChannelOptions { SingleReader = true });

    public ChannelWriter<Sample> Writer => channel.Writer;

    /// <summary>Runs until the writer is completed and every sample is stored.</summary>
    public async Task WriteAllAsync(CancellationToken ct)
    {
        var batch = new List<Sample>(batchSize);
        while (await channel.Reader.WaitToReadAsync(ct))
        {
            while (batch.Count < batchSize && channel.Reader.TryRead(out var sample)) batch.Add(sample);
            await SaveAsync(batch, ct);
            var full = batch.Count == batchSize;
            batch.Clear();
            if (!full && flushInterval > TimeSpan.Zero) await Task.Delay(flushInterval, ct);
        }
    }

    async Task SaveAsync(List<Sample> batch, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<BenchDbContext>();
        await using var transaction = await db.Database.BeginTransactionAsync(ct);
        await using var insert = db.Database.GetDbConnection().CreateCommand();
        insert.Transaction = transaction.GetDbTransaction();
        insert.CommandText = """
            INSERT INTO Samples (RunId, "Index", OffsetNs, LatencyNs, HeadersNs, ConnectNs, StatusCode, Bytes, Error, IsWarmup, Connection, Series, Hit)
            VALUES ($run, $index, $offset, $latency, $headers, $connect, $status, $bytes, $error, $warmup, $connection, $series, $hit)
            """;
        var run = Parameter(insert, "$run");
        var index = Parameter(insert, "$index");
        var offset = Parameter(insert, "$offset");
        var latency = Parameter(insert, "$latency");
        var headers = Parameter(insert, "$headers");
        var connect = Parameter(insert, "$connect");
        var status = Parameter(insert, "$status");
        var bytes = Parameter(insert, "$bytes");
        var error = Parameter(insert, "$error");
        var warmup = Parameter(insert, "$warmup");
        var connection = Parameter(insert, "$connection");
        var series = Parameter(insert, "$series");
        var hit = Parameter(insert, "$hit");
        await insert.PrepareAsync(ct);

        foreach (var s in batch)
        {
            run.Value = s.RunId;
            index.Value = s.Index;
            offset.Value = s.OffsetNs;
            latency.Value = s.LatencyNs;
            headers.Value = (object?)s.HeadersNs ?? DBNull.Value;
            connect.Value = (object?)s.ConnectNs ?? DBNull.Value;
            status.Value = (object?)s.StatusCode ?? DBNull.Value;
            bytes.Value = s.Bytes;
            error.Value = (int)s.Error;
            warmup.Value = s.IsWarmup;
            connection.Value = s.Connection;
            series.Value = (object?)s.Series ?? DBNull.Value;
            hit.Value = (object?)s.Hit ?? DBNull.Value;
            await insert.ExecuteNonQueryAsync(ct);
        }
        await transaction.CommitAsync(ct);
    }

    static DbParameter Parameter(DbCommand command, string name)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        command.Parameters.Add(parameter);
        return parameter;
    }
}
