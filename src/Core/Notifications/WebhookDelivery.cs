namespace BenchDashboard.Core.Notifications;

/// <summary>Where a webhook delivery stands.</summary>
public enum DeliveryStatus
{
    /// <summary>Waiting for its first or next attempt (<see cref="WebhookDelivery.NextAttemptUtcMs"/>).</summary>
    Pending,
    /// <summary>The receiver answered 2xx.</summary>
    Delivered,
    /// <summary>Every attempt failed, or it could not be sent at all (no signing key); see <see cref="WebhookDelivery.LastError"/>.</summary>
    Failed,
}

/// <summary>
/// One POST of a run's summary to one of its benchmark's webhook URLs. Stored before anything is sent, so a
/// delivery under way survives a restart of the dashboard and its attempts are visible on the run page.
/// </summary>
public sealed class WebhookDelivery
{
    public long Id { get; set; }
    public long RunId { get; set; }
    public required string Url { get; set; }

    /// <summary>Why it is sent: "failed", "interrupted", "thresholdsFailed", "regression" (<see cref="WebhookEvent"/>).</summary>
    public required string Event { get; set; }

    /// <summary>The JSON body, the same for every attempt (each attempt signs it with its own timestamp).</summary>
    public required string PayloadJson { get; set; }

    public DeliveryStatus Status { get; set; }
    public int Attempts { get; set; }
    public long CreatedUtcMs { get; set; }

    /// <summary>When the next attempt is due; while an attempt is under way, when it may be taken over.</summary>
    public long NextAttemptUtcMs { get; set; }
    public long? LastAttemptUtcMs { get; set; }

    /// <summary>The receiver's HTTP status on the last attempt; null when none answered (refused, timed out).</summary>
    public int? LastStatusCode { get; set; }
    public string? LastError { get; set; }
}
