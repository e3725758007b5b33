using BenchDashboard.Core.Security;

namespace BenchDashboard.Core.Notifications;

/// <summary>
/// A benchmark's webhook URLs checked before they are stored: absolute http(s) URLs the same
/// <see cref="TargetPolicy"/> as benchmark targets allows (no metadata address; loopback only where targets may
/// use it). The sender checks each connection's address again, so a later DNS answer cannot get round it.
/// </summary>
public static class WebhookUrls
{
    public const int MaxCount = 10, MaxLength = 2000;

    /// <summary>A webhook URL as someone who is not an administrator sees it: a receiver's token is often in its path, so only where it goes.</summary>
    public static string Redact(string url) => Uri.TryCreate(url, UriKind.Absolute, out var uri) ? $"{uri.Scheme}://{uri.Authority}/…" : "…";

    /// <summary>The URLs trimmed, blanks and repeats dropped, or the error for the "webhookUrls" field.</summary>
    public static async Task<(List<string> Urls, string? Error)> ValidateAsync(IEnumerable<string>? urls, TargetPolicy policy, CancellationToken ct)
    {
        var list = (urls ?? []).Select(u => u.Trim()).Where(u => u.Length > 0).Distinct(StringComparer.Ordinal).ToList();
        if (list.Count > MaxCount) return (list, $"Enter at most {MaxCount} webhook URLs.");
        foreach (var url in list)
        {
            var shown = url.Length > 80 ? url[..80] + "…" : url;
            if (url.Length > MaxLength) return (list, $"'{shown}' is longer than {MaxLength} characters.");
            if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https") || uri.Host.Length == 0)
                return (list, $"'{shown}' is not an absolute http:// or https:// URL.");
            // Credentials in the address would be shown wherever the URL is; a receiver checks the signature instead.
            if (uri.UserInfo.Length > 0) return (list, $"'{uri.Host}': a webhook URL may not carry a user name or password.");
            if (await policy.CheckAsync(uri, ct) is { } refused) return (list, $"'{shown}': {refused}");
        }
        return (list, null);
    }
}
