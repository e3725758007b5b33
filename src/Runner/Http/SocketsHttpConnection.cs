using System.Diagnostics;
using System.Net;
using System.Net.Http;
using System.Net.Security;
using System.Net.Sockets;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Http.Io;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// One client connection through SocketsHttpHandler: its own handler limited to one connection, so that a TCP connect observed by
/// <see cref="ConnectAsync"/> belongs to the request being sent on it (<see cref="TakeConnectTicks"/>). A worker's
/// variants that can share a connection (<see cref="HttpParameters.ConnectionKey"/>) send on one, so a connection's own speed
/// (the server worker or accept queue it landed on) is never attributed to one variant.
/// </summary>
sealed class SocketsHttpConnection : IDisposable
{
    readonly TargetPolicy policy;
    long pendingConnectTicks = -1;

    /// <param name="blocking">Requests are sent with blocking calls on the caller's thread, and connects made with one (<see cref="BlockingIo"/>).</param>
    /// <param name="serverCertificate">Overrides the check of an https:// target's certificate; null: the system's trust store.</param>
    public SocketsHttpConnection(TimeSpan connectTimeout, TargetPolicy policy, bool blocking = false, RemoteCertificateValidationCallback? serverCertificate = null)
    {
        this.policy = policy;
        Blocking = blocking;
        var handler = new SocketsHttpHandler
        {
            MaxConnectionsPerServer = 1,
            ConnectCallback = ConnectAsync,
            ConnectTimeout = connectTimeout,
            AllowAutoRedirect = false,
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
            UseProxy = false,
            PooledConnectionIdleTimeout = Timeout.InfiniteTimeSpan,
        };
        // A blocking read is ended by disposing its response (SocketsHttpSender): that must close the connection at
        // once, not drain the rest of the body while the worker's read still waits on it.
        if (blocking) handler.MaxResponseDrainSize = 0;
        if (serverCertificate is not null) handler.SslOptions.RemoteCertificateValidationCallback = serverCertificate;
        Invoker = new HttpMessageInvoker(handler, disposeHandler: true);
    }

    public HttpMessageInvoker Invoker { get; }

    /// <summary>Whether closed-model requests go out with blocking calls, a thread per connection (<see cref="BlockingIo"/> says why).</summary>
    public bool Blocking { get; }

    /// <summary>The time of the connect made for the request just sent, once; null when it reused the connection.</summary>
    public long? TakeConnectTicks() => Interlocked.Exchange(ref pendingConnectTicks, -1) is var ticks and >= 0 ? ticks : null;

    ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken ct) =>
        Blocking ? ConnectAsync<BlockingIo>(context.DnsEndPoint, ct) : ConnectAsync<AsyncIo>(context.DnsEndPoint, ct);

    async ValueTask<Stream> ConnectAsync<TIo>(DnsEndPoint endPoint, CancellationToken ct) where TIo : struct, IIoAdapter
    {
        var start = Stopwatch.GetTimestamp();
        // Resolve here and connect only to addresses the policy allows: the address checked is the address
        // connected to, so a DNS answer that changed since validation cannot reach a refused one.
        var addresses = await policy.AllowedAddressesAsync(endPoint.Host, ct);
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await TIo.ConnectAsync(socket, addresses, endPoint.Port, ct);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        Volatile.Write(ref pendingConnectTicks, Stopwatch.GetTimestamp() - start);
        return new NetworkStream(socket, ownsSocket: true);
    }

    public void Dispose() => Invoker.Dispose();
}
