using Azure.Core;
using Azure.Core.Pipeline;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// Table Storage refuses a batch of more than 100 operations, of several partitions, touching one entity
/// twice, or over 4 MiB. Azure.Data.Tables checks none of this before sending (a 101-action batch comes back
/// as an answer it cannot parse), and Azurite accepts mixed partition keys, so without these checks a benchmark
/// against the emulator would measure a batch the service would never take.
/// </summary>
static class EntityBatch
{
    public const int MaxOperations = 100;
    public const int MaxBodyBytes = 4 * 1024 * 1024;

    /// <summary>Why the service would refuse these (partition, row) keys as one batch, or null.</summary>
    public static string? Problem(IReadOnlyList<(string PartitionKey, string RowKey)> keys)
    {
        if (keys.Count == 0) return "A batch needs at least one entity.";
        if (keys.Count > MaxOperations) return $"A batch holds at most {MaxOperations} entities; this one has {keys.Count}.";
        var partition = keys[0].PartitionKey;
        if (keys.FirstOrDefault(k => k.PartitionKey != partition) is { PartitionKey: not null } other)
            return $"Every entity of a batch must share one PartitionKey; this one has '{partition}' and '{other.PartitionKey}'.";
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var key in keys)
            if (!seen.Add(key.RowKey)) return $"RowKey '{key.RowKey}' appears twice; a batch may touch each entity once.";
        return null;
    }
}

/// <summary>
/// Refuses a <c>$batch</c> body over 4 MiB after the SDK has built it and before it is sent: the size is only
/// known once the entities are serialized, and only the SDK serializes them.
/// </summary>
sealed class BatchBodyLimitPolicy : HttpPipelineSynchronousPolicy
{
    public override void OnSendingRequest(HttpMessage message)
    {
        if (!message.Request.Uri.Path.EndsWith("/$batch", StringComparison.Ordinal)) return;
        if (message.Request.Content?.TryComputeLength(out var length) == true && length > EntityBatch.MaxBodyBytes)
            throw new InvalidBatchException($"The batch body is {length / 1048576.0:N2} MiB; Table Storage takes at most 4 MiB per batch.");
    }
}

/// <summary>
/// Asks for <c>Expect: 100-continue</c> on every request of a variant that wants it (seed 003's
/// ServicePointManager.Expect100Continue): the client sends the headers, waits for "100 Continue" (or the
/// handler's Expect100ContinueTimeout), then the body.
/// </summary>
sealed class ExpectContinuePolicy : HttpPipelineSynchronousPolicy
{
    public override void OnSendingRequest(HttpMessage message) => message.Request.Headers.SetValue("Expect", "100-continue");
}

/// <summary>A batch the service would refuse; nothing was sent.</summary>
public sealed class InvalidBatchException(string message) : ArgumentException(message);
