using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace BenchDashboard.TestSupport;

/// <summary>One HTTP/1.1 request as it arrived at the relay: its head and when each part of its body came.</summary>
public sealed class RelayedRequest
{
    public required int Connection { get; init; }
    public required string Method { get; init; }
    public required string Target { get; init; }
    public required IReadOnlyDictionary<string, string> Headers { get; init; }

    /// <summary>Stopwatch timestamp of the receive that completed the head.</summary>
    public required long HeadTimestamp { get; init; }

    /// <summary>(Stopwatch timestamp, bytes) of each receive that carried body bytes, in order.</summary>
    public List<(long Timestamp, int Bytes)> BodyChunks { get; } = [];

    public string? Header(string name) => Headers.TryGetValue(name, out var value) ? value : null;

    /// <summary>From the head's arrival to the body's last byte: where a Nagle stall shows (the rest of the body waits for an ACK).</summary>
    public double BodySpreadMs => BodyChunks.Count == 0 ? 0 : (BodyChunks[^1].Timestamp - HeadTimestamp) * 1000.0 / Stopwatch.Frequency;
}

/// <summary>What the relay does with a request: pass it on, answer it itself, or reset the connection.</summary>
public abstract record RelayReply
{
    public static readonly RelayReply Forward = new ForwardReply();
    public static readonly RelayReply Reset = new ResetReply();
    public static RelayReply Respond(int status, string reason, string contentType, string body) => new RespondReply(status, reason, contentType, body);

    public sealed record ForwardReply : RelayReply;
    public sealed record ResetReply : RelayReply;
    public sealed record RespondReply(int Status, string Reason, string ContentType, string Body) : RelayReply
    {
        public byte[] Bytes()
        {
            var body = Encoding.UTF8.GetBytes(Body);
            return [.. Encoding.ASCII.GetBytes($"HTTP/1.1 {Status} {Reason}\r\nContent-Type: {ContentType}\r\nContent-Length: {body.Length}\r\n\r\n"), .. body];
        }
    }
}

/// <summary>
/// A loopback HTTP/1.1 relay between a client under test and a real server (Azurite): it reads each request
/// (head, then a Content-Length body), records when every part arrived, and forwards it, answers it with a
/// canned response, or resets the connection, as <c>decide</c> says. Responses from the server are copied
/// back byte for byte. With "Expect: 100-continue" it behaves as a server would: forwarded, the server's
/// interim answer comes back; answered here, the relay sends it itself.
/// </summary>
public sealed class HttpRelay : IAsyncDisposable
{
    readonly TcpListener listener = new(IPAddress.Loopback, 0);
    readonly CancellationTokenSource stop = new();
    readonly List<RelayedRequest> requests = [];
    readonly List<Socket> sockets = [];
    readonly IPEndPoint? upstream;
    readonly Func<RelayedRequest, RelayReply> decide;
    readonly Task acceptLoop;
    int connections;

    /// <param name="upstream">Where forwarded requests go; null for a relay that only answers itself.</param>
    public HttpRelay(int? upstreamPort, Func<RelayedRequest, RelayReply>? decide = null)
    {
        upstream = upstreamPort is { } port ? new IPEndPoint(IPAddress.Loopback, port) : null;
        this.decide = decide ?? (_ => RelayReply.Forward);
        listener.Start();
        acceptLoop = AcceptAsync();
    }

    public int Port => ((IPEndPoint)listener.LocalEndpoint).Port;

    /// <summary>The requests whose body has fully arrived, in arrival order.</summary>
    public IReadOnlyList<RelayedRequest> Requests
    {
        get { lock (requests) return requests.ToList(); }
    }

    async Task AcceptAsync()
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var client = await listener.AcceptSocketAsync(stop.Token);
                lock (sockets) sockets.Add(client);
                _ = ServeAsync(client, Interlocked.Increment(ref connections));
            }
        }
        catch (OperationCanceledException) { }
        catch (ObjectDisposedException) { }
    }

    async Task ServeAsync(Socket client, int id)
    {
        Socket? server = null;
        var buffer = new byte[64 * 1024];
        var pending = new MemoryStream(); // bytes received but not yet consumed
        try
        {
            while (true)
            {
                var (head, headAt) = await ReadHeadAsync(client, buffer, pending);
                if (head is null) return;
                var request = Parse(head, id, headAt);
                var reply = decide(request);
                if (reply is RelayReply.ResetReply)
                {
                    client.LingerState = new LingerOption(true, 0); // close with RST instead of FIN
                    client.Close();
                    lock (requests) requests.Add(request);
                    return;
                }
                if (reply is RelayReply.ForwardReply)
                {
                    if (server is null)
                    {
                        server = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                        lock (sockets) sockets.Add(server);
                        await server.ConnectAsync(upstream ?? throw new InvalidOperationException("This relay has nowhere to forward to."));
                        _ = PumpAsync(server, client);
                    }
                    await server.SendAsync(head);
                }
                else if (request.Header("Expect")?.Equals("100-continue", StringComparison.OrdinalIgnoreCase) == true)
                {
                    await client.SendAsync(Encoding.ASCII.GetBytes("HTTP/1.1 100 Continue\r\n\r\n"));
                }

                var remaining = int.TryParse(request.Header("Content-Length"), out var length) ? length : 0;
                while (remaining > 0)
                {
                    if (pending.Length == 0)
                    {
                        var read = await client.ReceiveAsync(buffer, stop.Token);
                        if (read == 0) return;
                        pending.Write(buffer, 0, read);
                    }
                    var chunk = Take(pending, Math.Min(remaining, (int)pending.Length));
                    request.BodyChunks.Add((Stopwatch.GetTimestamp(), chunk.Length));
                    remaining -= chunk.Length;
                    if (server is not null && reply is RelayReply.ForwardReply) await server.SendAsync(chunk);
                }
                lock (requests) requests.Add(request);
                if (reply is RelayReply.RespondReply respond) await client.SendAsync(respond.Bytes());
            }
        }
        catch (Exception) when (stop.IsCancellationRequested) { }
        catch (SocketException) { }
        catch (ObjectDisposedException) { }
        finally
        {
            client.Dispose();
            server?.Dispose();
        }
    }

    /// <summary>Reads up to and including the blank line that ends a request head; null when the client closed.</summary>
    async Task<(byte[]? Head, long At)> ReadHeadAsync(Socket client, byte[] buffer, MemoryStream pending)
    {
        while (true)
        {
            var data = pending.ToArray();
            var end = IndexOf(data, "\r\n\r\n"u8);
            if (end >= 0)
            {
                var head = Take(pending, end + 4);
                return (head, Stopwatch.GetTimestamp());
            }
            var read = await client.ReceiveAsync(buffer, stop.Token);
            if (read == 0) return (null, 0);
            pending.Write(buffer, 0, read);
        }
    }

    /// <summary>Copies the server's answers back to the client; when the server closes, so does the client's connection.</summary>
    async Task PumpAsync(Socket server, Socket client)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            int read;
            while ((read = await server.ReceiveAsync(buffer, stop.Token)) > 0) await client.SendAsync(buffer.AsMemory(0, read));
            client.Shutdown(SocketShutdown.Send);
        }
        catch (Exception) when (stop.IsCancellationRequested) { }
        catch (SocketException) { }
        catch (ObjectDisposedException) { }
    }

    static RelayedRequest Parse(byte[] head, int connection, long at)
    {
        var lines = Encoding.ASCII.GetString(head).Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        var requestLine = lines[0].Split(' ');
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var line in lines.Skip(1))
            if (line.IndexOf(':') is var colon and > 0) headers[line[..colon].Trim()] = line[(colon + 1)..].Trim();
        return new RelayedRequest { Connection = connection, Method = requestLine[0], Target = requestLine[1], Headers = headers, HeadTimestamp = at };
    }

    static byte[] Take(MemoryStream pending, int count)
    {
        var all = pending.ToArray();
        pending.SetLength(0);
        pending.Write(all, count, all.Length - count);
        return all[..count];
    }

    static int IndexOf(byte[] data, ReadOnlySpan<byte> pattern) => data.AsSpan().IndexOf(pattern);

    public async ValueTask DisposeAsync()
    {
        stop.Cancel();
        listener.Stop();
        await acceptLoop;
        lock (sockets) foreach (var socket in sockets) socket.Dispose();
        stop.Dispose();
    }
}
