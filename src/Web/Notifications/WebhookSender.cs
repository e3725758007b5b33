using System.Net;
using System.Net.Sockets;
using System.Text;
using BenchDashboard.Core.Notifications;
using BenchDashboard.Core.Security;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Notifications;

/// <summary>What one attempt came to: delivered on a 2xx; otherwise the status (if any answered) and why, in words.</summary>
public sealed record DeliveryAttempt(bool Delivered, int? StatusCode, string? Error);

/// <summary>
/// POSTs one delivery, signed (<see cref="WebhookSignature"/>). Connections go only to addresses the
/// <see cref="TargetPolicy"/> allows, checked on the address actually connected to; redirects are not followed
/// (one could lead to a refused address) and no proxy is used.
/// </summary>
public sealed class WebhookSender(IHttpClientFactory clients, IOptions<WebhookOptions> options, TimeProvider time)
{
    public const string ClientName = "webhooks";

    public async Task<DeliveryAttempt> SendAsync(WebhookDelivery delivery, string signingKey, CancellationToken ct)
    {
        var body = Encoding.UTF8.GetBytes(delivery.PayloadJson);
        var timestamp = time.GetUtcNow().ToUnixTimeSeconds();
        using var request = new HttpRequestMessage(HttpMethod.Post, delivery.Url) { Content = new ByteArrayContent(body) };
        request.Content.Headers.ContentType = new("application/json") { CharSet = "utf-8" };
        request.Headers.Add(WebhookSignature.SignatureHeader, WebhookSignature.Sign(signingKey, timestamp, body));
        request.Headers.Add(WebhookSignature.TimestampHeader, timestamp.ToString(System.Globalization.CultureInfo.InvariantCulture));
        request.Headers.Add(WebhookSignature.EventHeader, delivery.Event);
        request.Headers.Add(WebhookSignature.DeliveryHeader, delivery.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(TimeSpan.FromSeconds(options.Value.TimeoutSeconds));
        try
        {
            using var response = await clients.CreateClient(ClientName).SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
            var code = (int)response.StatusCode;
            if (response.IsSuccessStatusCode) return new(true, code, null);
            var why = $"HTTP {code} {response.ReasonPhrase}".TrimEnd();
            return new(false, code, code is >= 300 and < 400 ? why + ": redirects are not followed" : why);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return new(false, null, $"No answer within {options.Value.TimeoutSeconds} s (Webhooks:TimeoutSeconds).");
        }
        catch (HttpRequestException ex)
        {
            return new(false, null, ex.InnerException is TargetRefusedException refused ? refused.Message : $"{ex.HttpRequestError}: {ex.Message}");
        }
    }

    /// <summary>The handler behind <see cref="ClientName"/>.</summary>
    public static SocketsHttpHandler Handler(TargetPolicy policy) => new()
    {
        AllowAutoRedirect = false,
        UseProxy = false,
        UseCookies = false,
        ConnectCallback = async (context, ct) =>
        {
            var addresses = await policy.AllowedAddressesAsync(context.DnsEndPoint.Host, ct);
            var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            try
            {
                await socket.ConnectAsync(addresses, context.DnsEndPoint.Port, ct);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        },
    };
}
