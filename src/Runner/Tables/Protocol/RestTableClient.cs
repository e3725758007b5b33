using System.Text.Json;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;

namespace BenchDashboard.Runner.Tables.Protocol;

/// <summary>
/// Options for <see cref="RestTableClient"/>: Azure.Core's <see cref="ClientOptions"/>, so the transport, the
/// retry policy and per-call policies are set exactly as on Azure.Data.Tables' <c>TableClientOptions</c>.
/// </summary>
public sealed class TableProtocolOptions : ClientOptions;

/// <summary>
/// The Table service's REST protocol (JSON, no metadata) on an Azure.Core <see cref="HttpPipeline"/>:
/// SharedKeyLite or SAS authorisation per try, the caller's transport and policies, and nothing retried
/// unless the options say so. Service errors come back as <see cref="TableOutcome"/>s; a transport failure
/// throws <see cref="RequestFailedException"/> (status 0) as Azure.Core does.
/// </summary>
public sealed class RestTableClient : ITableClient
{
    /// <summary>The service version Azure.Data.Tables speaks; Azurite runs with --skipApiVersionCheck.</summary>
    const string ServiceVersion = "2019-02-02";
    const string JsonNoMetadata = "application/json;odata=nometadata";
    const int DeletePage = 1000;

    readonly HttpPipeline pipeline;
    readonly string endpoint;
    readonly string table;

    public RestTableClient(TableAccount account, string table, TableProtocolOptions options)
    {
        endpoint = account.BaseAddress;
        this.table = table;
        pipeline = HttpPipelineBuilder.Build(options, perCallPolicies: [], perRetryPolicies: [new AuthorizationPolicy(account)], new ResponseClassifier());
    }

    public async Task<bool> CreateTableIfNotExistsAsync(CancellationToken ct)
    {
        using var message = Create(RequestMethod.Post, new Uri($"{endpoint}/Tables"));
        message.Request.Headers.SetValue("Content-Type", "application/json");
        message.Request.Headers.SetValue("Prefer", "return-no-content");
        message.Request.Content = RequestContent.Create(JsonSerializer.SerializeToUtf8Bytes(new Dictionary<string, string> { ["TableName"] = table }));
        await pipeline.SendAsync(message, ct);
        var response = message.Response;
        if (response.Status is 201 or 204) return true;
        var error = TableError.Parse(response.Content.ToString());
        if (response.Status == 409 && error.Code == "TableAlreadyExists") return false;
        throw new TableServiceException(response.Status, error.Code, Describe(response.Status, error));
    }

    public async Task<TableOutcome> InsertAsync(TableEntity entity, CancellationToken ct)
    {
        using var message = Create(RequestMethod.Post, new Uri($"{endpoint}/{table}"));
        message.Request.Headers.SetValue("Content-Type", "application/json");
        message.Request.Headers.SetValue("Prefer", "return-no-content");
        message.Request.Content = RequestContent.Create(Json(entity));
        await pipeline.SendAsync(message, ct);
        var response = message.Response;
        if (response.Status is >= 200 and < 300) return new TableOutcome(response.Status, null, null, null, null);
        var error = TableError.Parse(response.Content.ToString());
        return new TableOutcome(response.Status, error.Code, error.Message, null, null);
    }

    public Task<TableOutcome> SubmitBatchAsync(IReadOnlyList<TableEntity> entities, CancellationToken ct) =>
        SendBatchAsync(entities.Select(e => new EntityBatch.Operation("POST", e.PartitionKey, e.RowKey, Json(e))).ToList(), ct);

    async Task<TableOutcome> SendBatchAsync(IReadOnlyList<EntityBatch.Operation> operations, CancellationToken ct)
    {
        var (body, contentType) = EntityBatch.Build(endpoint, table, operations); // throws before anything is sent
        using var message = Create(RequestMethod.Post, new Uri($"{endpoint}/$batch"));
        message.Request.Headers.SetValue("Content-Type", contentType);
        message.Request.Headers.SetValue("MaxDataServiceVersion", "3.0;NetFx");
        message.Request.Content = RequestContent.Create(body);
        await pipeline.SendAsync(message, ct);
        var response = message.Response;
        if (response.Status != 202)
        {
            var error = TableError.Parse(response.Content.ToString());
            return new TableOutcome(response.Status, error.Code, error.Message, error.FailedIndex, null);
        }
        if (response.Headers.ContentType is not { } responseType)
            return new TableOutcome(202, "NoContentType", "The 202 answer to a batch had no Content-Type, so its operations' statuses are unknown.", null, 202);
        return await BatchResponse.ReadAsync(responseType, response.ContentStream!, ct);
    }

    public async Task<long> CountAsync(string partitionKey, CancellationToken ct)
    {
        long count = 0;
        string? nextPartition = null, nextRow = null;
        do
        {
            var (rowKeys, continuation) = await RowKeysAsync(partitionKey, nextPartition, nextRow, ct);
            count += rowKeys.Count;
            (nextPartition, nextRow) = continuation;
        } while (nextPartition is not null);
        return count;
    }

    public async Task<long> DeleteEntitiesAsync(string partitionKey, CancellationToken ct)
    {
        long deleted = 0;
        while (true)
        {
            // Always the first page: what was deleted is gone, so no continuation is needed (or invalidated).
            var (rowKeys, _) = await RowKeysAsync(partitionKey, null, null, ct, DeletePage);
            if (rowKeys.Count == 0) return deleted;
            foreach (var chunk in rowKeys.Chunk(EntityBatch.MaxOperations))
            {
                var outcome = await SendBatchAsync(chunk.Select(rowKey => new EntityBatch.Operation("DELETE", partitionKey, rowKey, null)).ToList(), ct);
                if (!outcome.Succeeded)
                    throw new TableServiceException(outcome.Status, outcome.ErrorCode, $"Deleting entities failed: {Describe(outcome.Status, new TableError(outcome.ErrorCode, outcome.Message, outcome.FailedEntity))}");
                deleted += chunk.Length;
            }
        }
    }

    /// <summary>One page of a partition's row keys, and where the next page starts (null when none).</summary>
    async Task<(List<string> RowKeys, (string?, string?) Next)> RowKeysAsync(string partitionKey, string? nextPartition, string? nextRow, CancellationToken ct, int? top = null)
    {
        var query = $"$filter={Uri.EscapeDataString($"PartitionKey eq '{partitionKey.Replace("'", "''")}'")}&$select=RowKey";
        if (top is { } n) query += $"&$top={n}";
        if (nextPartition is not null) query += $"&NextPartitionKey={Uri.EscapeDataString(nextPartition)}";
        if (nextRow is not null) query += $"&NextRowKey={Uri.EscapeDataString(nextRow)}";
        using var message = Create(RequestMethod.Get, new Uri($"{endpoint}/{table}()?{query}"));
        await pipeline.SendAsync(message, ct);
        var response = message.Response;
        if (response.Status != 200)
            throw new TableServiceException(response.Status, null, $"Reading partition '{partitionKey}' failed: {Describe(response.Status, TableError.Parse(response.Content.ToString()))}");
        using var document = JsonDocument.Parse(response.Content.ToMemory());
        var rowKeys = document.RootElement.GetProperty("value").EnumerateArray().Select(e => e.GetProperty("RowKey").GetString()!).ToList();
        response.Headers.TryGetValue("x-ms-continuation-NextPartitionKey", out var partition);
        response.Headers.TryGetValue("x-ms-continuation-NextRowKey", out var row);
        return (rowKeys, (partition, row));
    }

    HttpMessage Create(RequestMethod method, Uri uri)
    {
        var message = pipeline.CreateMessage();
        message.Request.Method = method;
        message.Request.Uri.Reset(uri);
        message.Request.Headers.SetValue("x-ms-version", ServiceVersion);
        message.Request.Headers.SetValue("DataServiceVersion", "3.0");
        message.Request.Headers.SetValue("Accept", JsonNoMetadata);
        return message;
    }

    static byte[] Json(TableEntity entity)
    {
        using var buffer = new MemoryStream(entity.Payload.Length + 128);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("PartitionKey", entity.PartitionKey);
            writer.WriteString("RowKey", entity.RowKey);
            writer.WriteString("Payload", entity.Payload);
            writer.WriteEndObject();
        }
        return buffer.ToArray();
    }

    /// <summary>"403 AuthenticationFailed: Server failed to authenticate the request."</summary>
    internal static string Describe(int status, TableError error) =>
        $"{status}{(error.Code is null ? "" : " " + error.Code)}{(error.Message is null ? "" : ": " + error.Message)}";
}
