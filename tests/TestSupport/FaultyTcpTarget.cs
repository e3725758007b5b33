using System.Net;
using System.Net.Sockets;
using System.Text;

namespace BenchDashboard.TestSupport;

/// <summary>How a <see cref="FaultyTcpTarget"/> misbehaves after reading a request.</summary>
public enum Fault
{
    /// <summary>Sends headers announcing a large body, part of the body, then a TCP reset.</summary>
    ResetMidResponse,
    /// <summary>Never answers; holds the connection open.</summary>
    Stall,
    /// <summary>Sends headers announcing a large body and part of it, then holds the connection open.</summary>
    StallMidBody,
}

/// <summary>A raw TCP server on 127.0.0.1 that breaks HTTP on purpose, for fault classification tests.</summary>
public sealed class FaultyTcpTarget : IAsyncDisposable
{
    readonly TcpListener listener = new(IPAddress.Loopback, 0);
    readonly CancellationTokenSource stop = new();
    readonly List<Socket> held = [];
    readonly Fault fault;
    readonly Task acceptLoop;

    public FaultyTcpTarget(Fault fault)
    {
        this.fault = fault;
        listener.Start();
        acceptLoop = AcceptAsync();
    }

    public Uri Url => new($"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}/");

    /// <summary>A loopback port with nothing listening: bound then released, so connecting is refused.</summary>
    public static Uri ClosedPortUrl()
    {
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        return new Uri($"http://127.0.0.1:{port}/");
    }

    async Task AcceptAsync()
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var socket = await listener.AcceptSocketAsync(stop.Token);
                _ = ServeAsync(socket);
            }
        }
        catch (OperationCanceledException) { }
        catch (ObjectDisposedException) { }
    }

    async Task ServeAsync(Socket socket)
    {
        try
        {
            await ReadRequestHeadAsync(socket);
            if (fault == Fault.Stall)
            {
                lock (held) held.Add(socket);
                return;
            }
            await socket.SendAsync(Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"));
            await socket.SendAsync(new byte[1000]);
            if (fault == Fault.StallMidBody)
            {
                lock (held) held.Add(socket);
                return;
            }
            socket.LingerState = new LingerOption(true, 0); // close with RST instead of FIN
            socket.Close();
        }
        catch (Exception) when (stop.IsCancellationRequested) { }
        catch (SocketException) { }
    }

    static async Task ReadRequestHeadAsync(Socket socket)
    {
        var buffer = new byte[8192];
        var seen = new StringBuilder();
        while (!seen.ToString().Contains("\r\n\r\n"))
        {
            var read = await socket.ReceiveAsync(buffer);
            if (read == 0) return;
            seen.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }
    }

    public async ValueTask DisposeAsync()
    {
        stop.Cancel();
        listener.Stop();
        await acceptLoop;
        lock (held) foreach (var s in held) s.Dispose();
        stop.Dispose();
    }
}
