using System.Security.Cryptography;
using System.Text;

namespace BenchDashboard.Core.Notifications;

/// <summary>
/// How a delivery is signed, as Stripe and GitHub sign theirs: HMAC-SHA256 under the shared key over
/// "{timestamp}.{body}", sent as <c>X-BenchDashboard-Signature: sha256={hex}</c> with the Unix seconds in
/// <c>X-BenchDashboard-Timestamp</c>. The timestamp is signed so a receiver can refuse a replayed call (older
/// than five minutes, say); the body is signed as sent, byte for byte.
/// </summary>
public static class WebhookSignature
{
    public const string SignatureHeader = "X-BenchDashboard-Signature", TimestampHeader = "X-BenchDashboard-Timestamp",
        EventHeader = "X-BenchDashboard-Event", DeliveryHeader = "X-BenchDashboard-Delivery";

    public static string Sign(string key, long unixSeconds, byte[] body)
    {
        var prefix = Encoding.UTF8.GetBytes(unixSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture) + ".");
        byte[] signed = [.. prefix, .. body];
        return "sha256=" + Convert.ToHexStringLower(HMACSHA256.HashData(Encoding.UTF8.GetBytes(key), signed));
    }
}
