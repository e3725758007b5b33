using System.Net.Http.Headers;
using System.Text;

namespace BenchDashboard.Runner.Tables.Protocol;

/// <summary>
/// An entity group transaction: one <c>$batch</c> request, multipart/mixed with one changeset, whose parts are
/// the operations as HTTP requests. Checked before anything is sent: Table Storage refuses a batch of more
/// than 100 operations, of several partitions, touching one entity twice, or over 4 MiB; Azurite accepts
/// mixed partition keys, so without this check a benchmark against the emulator would measure a batch the
/// service would never take.
/// </summary>
static class EntityBatch
{
    public const int MaxOperations = 100;
    public const int MaxBodyBytes = 4 * 1024 * 1024;

    /// <summary>One operation: an insert (with its JSON) or a delete (no body) of one entity.</summary>
    public sealed record Operation(string Method, string PartitionKey, string RowKey, byte[]? Json);

    /// <summary>Why the service would refuse these operations as one batch, or null.</summary>
    public static string? Problem(IReadOnlyList<Operation> operations)
    {
        if (operations.Count == 0) return "A batch needs at least one entity.";
        if (operations.Count > MaxOperations)
            return $"A batch holds at most {MaxOperations} entities; this one has {operations.Count}.";
        var partition = operations[0].PartitionKey;
        if (operations.FirstOrDefault(o => o.PartitionKey != partition) is { } other)
            return $"Every entity of a batch must share one PartitionKey; this one has '{partition}' and '{other.PartitionKey}'.";
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var operation in operations)
            if (!seen.Add(operation.RowKey))
                return $"RowKey '{operation.RowKey}' appears twice; a batch may touch each entity once.";
        return null;
    }

    /// <summary>The request body and its Content-Type; throws <see cref="InvalidBatchException"/> for a batch the service would refuse.</summary>
    public static (byte[] Body, string ContentType) Build(string endpoint, string table, IReadOnlyList<Operation> operations)
    {
        if (Problem(operations) is { } problem) throw new InvalidBatchException(problem);

        var changeset = Multipart("changeset_");
        foreach (var operation in operations)
        {
            var part = new ByteArrayContent(RequestText(endpoint, table, operation));
            part.Headers.ContentType = new MediaTypeHeaderValue("application/http");
            part.Headers.TryAddWithoutValidation("Content-Transfer-Encoding", "binary");
            changeset.Add(part);
        }
        using var batch = Multipart("batch_");
        batch.Add(changeset);
        using var body = new MemoryStream();
        batch.CopyTo(body, null, CancellationToken.None);
        if (body.Length > MaxBodyBytes)
            throw new InvalidBatchException($"The batch body is {body.Length / 1048576.0:N2} MiB; Table Storage takes at most 4 MiB per batch.");
        return (body.ToArray(), batch.Headers.ContentType!.ToString());
    }

    /// <summary>
    /// A multipart/mixed body whose Content-Type names the boundary without quotes: .NET quotes it, which
    /// RFC 2046 allows, but Azurite takes the quotes for part of the boundary and then finds one operation.
    /// </summary>
    static MultipartContent Multipart(string prefix)
    {
        var boundary = prefix + Guid.NewGuid().ToString("D");
        var content = new MultipartContent("mixed", boundary);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse($"multipart/mixed; boundary={boundary}");
        return content;
    }

    /// <summary>One operation as the HTTP request inside the changeset.</summary>
    static byte[] RequestText(string endpoint, string table, Operation operation)
    {
        var target = operation.Json is null ? $"{endpoint}/{table}{EntityPath(operation.PartitionKey, operation.RowKey)}" : $"{endpoint}/{table}";
        var head = new StringBuilder()
            .Append(operation.Method).Append(' ').Append(target).Append(" HTTP/1.1\r\n")
            .Append("Accept: application/json;odata=nometadata\r\n")
            .Append("DataServiceVersion: 3.0\r\n");
        if (operation.Json is null) head.Append("If-Match: *\r\n");
        else head.Append("Content-Type: application/json\r\nPrefer: return-no-content\r\n");
        head.Append("\r\n");
        var headBytes = Encoding.ASCII.GetBytes(head.ToString());
        return operation.Json is null ? headBytes : [.. headBytes, .. operation.Json];
    }

    /// <summary><c>(PartitionKey='a',RowKey='b')</c>, quotes doubled and escaped as OData keys are.</summary>
    public static string EntityPath(string partitionKey, string rowKey) =>
        $"(PartitionKey='{Uri.EscapeDataString(partitionKey.Replace("'", "''"))}',RowKey='{Uri.EscapeDataString(rowKey.Replace("'", "''"))}')";
}

/// <summary>A batch the service would refuse; nothing was sent.</summary>
public sealed class InvalidBatchException(string message) : ArgumentException(message);
