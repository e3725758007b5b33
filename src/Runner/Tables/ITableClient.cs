namespace BenchDashboard.Runner.Tables;

/// <summary>
/// The only Table Storage operations the benchmark needs, so the driver reads as the seed's experiment and not
/// as SDK calls. <see cref="SdkTableClient"/> implements them on Azure.Data.Tables' <c>TableClient</c>, turning
/// a <c>RequestFailedException</c> with a status into a <see cref="TableOutcome"/>.
/// </summary>
public interface ITableClient
{
    /// <summary>Creates the table; false when it existed. Throws <see cref="TableServiceException"/> when refused.</summary>
    Task<bool> CreateTableIfNotExistsAsync(CancellationToken ct);

    /// <summary>Inserts one entity. Service errors are outcomes; only transport failures throw.</summary>
    Task<TableOutcome> InsertAsync(BenchEntity entity, CancellationToken ct);

    /// <summary>
    /// Inserts entities of one partition as one entity group transaction. Validated before sending
    /// (<see cref="InvalidBatchException"/>); the outcome carries each operation's real status.
    /// </summary>
    Task<TableOutcome> SubmitBatchAsync(IReadOnlyList<BenchEntity> entities, CancellationToken ct);

    /// <summary>How many entities a partition holds.</summary>
    Task<long> CountAsync(string partitionKey, CancellationToken ct);

    /// <summary>Deletes every entity of a partition (in batches); returns how many.</summary>
    Task<long> DeleteEntitiesAsync(string partitionKey, CancellationToken ct);
}

/// <summary>An entity as the benchmark writes it: its keys and one string property of a chosen size.</summary>
public sealed record BenchEntity(string PartitionKey, string RowKey, string Payload);

/// <summary>
/// What the service answered to one insert or batch. For a batch, <see cref="Status"/> is the failing
/// operation's status inside the 202 answer (<see cref="BatchStatus"/>), or 202 when every operation succeeded.
/// </summary>
public sealed record TableOutcome(int Status, string? ErrorCode, string? Message, int? FailedEntity, int? BatchStatus)
{
    /// <summary>Each operation's status inside a successful batch answer, in order.</summary>
    public IReadOnlyList<int> OperationStatuses { get; init; } = [];

    public bool Succeeded => Status is >= 200 and < 300;
}

/// <summary>The service refused a call the benchmark cannot go on without (wrong key, no such account, …).</summary>
public sealed class TableServiceException(int status, string? code, string message) : Exception(message)
{
    public int Status { get; } = status;
    public string? Code { get; } = code;
}
