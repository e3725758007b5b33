using Azure;
using Azure.Data.Tables;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// The benchmark's five calls on Azure.Data.Tables' <see cref="TableClient"/>, the client users run. Service
/// errors (<see cref="RequestFailedException"/> with a status) become <see cref="TableOutcome"/>s; a transport
/// failure (status 0), a timeout or a failed sign-in propagates.
/// </summary>
sealed class SdkTableClient(TableClient client) : ITableClient
{
    const int DeletePage = 1000;
    static readonly string[] RowKeyOnly = ["RowKey"];

    public async Task<bool> CreateTableIfNotExistsAsync(CancellationToken ct)
    {
        try
        {
            // The SDK answers an existing table with its 409, not an exception.
            return (await client.CreateIfNotExistsAsync(ct)).GetRawResponse().Status != 409;
        }
        catch (RequestFailedException ex) when (ex.Status != 0)
        {
            var outcome = Outcome(ex);
            throw new TableServiceException(outcome.Status, outcome.ErrorCode, TableErrorClassifier.Describe(outcome));
        }
    }

    public async Task<TableOutcome> InsertAsync(BenchEntity entity, CancellationToken ct)
    {
        try
        {
            var response = await client.AddEntityAsync(ToSdk(entity), ct);
            return new TableOutcome(response.Status, null, null, null, null);
        }
        catch (RequestFailedException ex) when (ex.Status != 0)
        {
            return Outcome(ex);
        }
    }

    public Task<TableOutcome> SubmitBatchAsync(IReadOnlyList<BenchEntity> entities, CancellationToken ct) =>
        SubmitAsync(entities.Select(e => (e.PartitionKey, e.RowKey)).ToList(),
            entities.Select(e => new TableTransactionAction(TableTransactionActionType.Add, ToSdk(e))), ct);

    async Task<TableOutcome> SubmitAsync(IReadOnlyList<(string, string)> keys, IEnumerable<TableTransactionAction> actions, CancellationToken ct)
    {
        if (EntityBatch.Problem(keys) is { } problem) throw new InvalidBatchException(problem);
        try
        {
            var response = await client.SubmitTransactionAsync(actions, ct);
            return new TableOutcome(response.GetRawResponse().Status, null, null, null, 202) { OperationStatuses = response.Value.Select(r => r.Status).ToList() };
        }
        catch (TableTransactionFailedException ex)
        {
            // The service answered 202; the failing operation's own status is inside it.
            return Outcome(ex) with { FailedEntity = ex.FailedTransactionActionIndex, BatchStatus = 202 };
        }
        catch (RequestFailedException ex) when (ex.Status != 0)
        {
            return Outcome(ex);
        }
    }

    public async Task<long> CountAsync(string partitionKey, CancellationToken ct)
    {
        long count = 0;
        await foreach (var page in Partition(partitionKey, ct).AsPages())
            count += page.Values.Count;
        return count;
    }

    public async Task<long> DeleteEntitiesAsync(string partitionKey, CancellationToken ct)
    {
        long deleted = 0;
        while (true)
        {
            // Always the first page: what was deleted is gone, so no continuation is needed (or invalidated).
            Page<TableEntity>? first = null;
            await foreach (var page in Partition(partitionKey, ct).AsPages(pageSizeHint: DeletePage))
            {
                first = page;
                break;
            }
            if (first is null || first.Values.Count == 0) return deleted;
            foreach (var chunk in first.Values.Chunk(EntityBatch.MaxOperations))
            {
                // Only RowKey was selected: the partition key is the one asked for.
                var outcome = await SubmitAsync(chunk.Select(e => (partitionKey, e.RowKey)).ToList(),
                    chunk.Select(e => new TableTransactionAction(TableTransactionActionType.Delete, new TableEntity(partitionKey, e.RowKey), ETag.All)), ct);
                if (!outcome.Succeeded)
                    throw new TableServiceException(outcome.Status, outcome.ErrorCode, $"Deleting entities failed: {TableErrorClassifier.Describe(outcome)}");
                deleted += chunk.Length;
            }
        }
    }

    AsyncPageable<TableEntity> Partition(string partitionKey, CancellationToken ct) =>
        client.QueryAsync<TableEntity>(TableClient.CreateQueryFilter($"PartitionKey eq {partitionKey}"), DeletePage, RowKeyOnly, ct);

    static TableEntity ToSdk(BenchEntity entity) => new(entity.PartitionKey, entity.RowKey) { ["Payload"] = entity.Payload };

    /// <summary>
    /// The status, the error code and the service's own message: the exception's first line, without the
    /// "3:" a batch puts before it (the failing operation's position, which the SDK reads separately) and
    /// without the request id and time lines, which differ every time; what the body adds in parentheses.
    /// </summary>
    static TableOutcome Outcome(RequestFailedException ex)
    {
        var body = ServiceErrorBody.Read(ex.GetRawResponse());
        var message = ServiceErrorBody.FirstLine(ex.Message)!;
        if (message.IndexOf(':') is var colon and > 0 && message[..colon].All(char.IsAsciiDigit)) message = message[(colon + 1)..];
        if (ex.ErrorCode is null && body.Message is not null) message = body.Message;
        if (body.AuthenticationDetail is { } detail) message += $" ({detail})";
        return new TableOutcome(ex.Status, ex.ErrorCode ?? body.Code, message.Length == 0 ? null : message, null, null);
    }
}
