using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Tests.Notifications;

/// <summary>One call a receiver got: its body, when, and whether its signature and timestamp checked out.</summary>
public sealed record ReceivedCall(JsonElement Body, string Event, DateTime ReceivedUtc, bool SignatureValid, bool TimestampFresh);

/// <summary>
/// A real webhook receiver on 127.0.0.1 (Kestrel in the test), checking each call as a receiver should, with its
/// own HMAC-SHA256 over "{timestamp}.{raw body}" and a five-minute window on the timestamp; it answers
/// <paramref name="status"/>.
/// </summary>
public sealed class WebhookReceiver(WebApplication app) : IAsyncDisposable
{
    public ConcurrentQueue<ReceivedCall> Calls { get; } = new();
    public string Url => app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single() + "/hook";

    public static async Task<WebhookReceiver> StartAsync(string signingKey, int status = 200, int port = 0)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var receiver = new WebhookReceiver(app);
        app.MapPost("/hook", async (HttpRequest request) =>
        {
            using var buffer = new MemoryStream();
            await request.Body.CopyToAsync(buffer);
            var body = buffer.ToArray();
            var timestamp = request.Headers["X-BenchDashboard-Timestamp"].ToString();
            byte[] signed = [.. Encoding.UTF8.GetBytes(timestamp + "."), .. body];
            var expected = "sha256=" + Convert.ToHexStringLower(HMACSHA256.HashData(Encoding.UTF8.GetBytes(signingKey), signed));
            var valid = CryptographicOperations.FixedTimeEquals(Encoding.ASCII.GetBytes(expected), Encoding.ASCII.GetBytes(request.Headers["X-BenchDashboard-Signature"].ToString()));
            var fresh = long.TryParse(timestamp, out var seconds) && Math.Abs(DateTimeOffset.UtcNow.ToUnixTimeSeconds() - seconds) <= 300;
            receiver.Calls.Enqueue(new ReceivedCall(JsonDocument.Parse(body).RootElement.Clone(), request.Headers["X-BenchDashboard-Event"].ToString(), DateTime.UtcNow, valid, fresh));
            return Results.StatusCode(status);
        });
        await app.StartAsync();
        return receiver;
    }

    /// <summary>A port on 127.0.0.1 that nothing listens on: connecting to it is refused.</summary>
    public static int ClosedPort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    public async ValueTask DisposeAsync() => await app.DisposeAsync();
}
