using System.ComponentModel.DataAnnotations;

namespace BenchDashboard.Core.Notifications;

/// <summary>Section "Webhooks": how the dashboard signs, sends and retries webhook deliveries.</summary>
public sealed class WebhookOptions : IValidatableObject
{
    public const string Section = "Webhooks";

    /// <summary>
    /// The HMAC-SHA256 key every delivery is signed with. Without it nothing is sent: each delivery is marked
    /// failed saying so, since a receiver could not tell an unsigned call from a forged one.
    /// </summary>
    public string? SigningKey { get; set; }

    /// <summary>
    /// The dashboard's address as receivers should link to it ("https://bench.example.com"); unset, the address
    /// an administrator last reached it by, else the address it listens on.
    /// </summary>
    [Url] public string? PublicBaseUrl { get; set; }

    /// <summary>Attempts per delivery, the first included, before it is marked failed.</summary>
    [Range(1, 20)] public int MaxAttempts { get; set; } = 5;

    /// <summary>The wait before the first retry; it doubles with each attempt up to <see cref="MaxRetrySeconds"/>.</summary>
    [Range(0.01, 3600)] public double FirstRetrySeconds { get; set; } = 10;
    [Range(0.01, 86_400)] public double MaxRetrySeconds { get; set; } = 600;

    /// <summary>How long one attempt may take, connecting included.</summary>
    [Range(1, 300)] public int TimeoutSeconds { get; set; } = 10;

    /// <summary>How often the dashboard looks for finished runs to judge and deliveries due.</summary>
    [Range(10, 60_000)] public int PollIntervalMs { get; set; } = 1000;

    /// <summary>An empty key is no key (an environment variable set to nothing); a short one is refused at start.</summary>
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (SigningKey is { Length: > 0 and < 16 })
            yield return new ValidationResult("Webhooks:SigningKey must be at least 16 characters (32 random bytes, base64, is a good key).", [nameof(SigningKey)]);
    }

    /// <summary>The wait after attempt <paramref name="attempts"/> failed: 10 s, 20 s, 40 s … by default.</summary>
    public TimeSpan RetryDelay(int attempts) =>
        TimeSpan.FromSeconds(Math.Min(MaxRetrySeconds, FirstRetrySeconds * Math.Pow(2, Math.Max(0, attempts - 1))));
}
