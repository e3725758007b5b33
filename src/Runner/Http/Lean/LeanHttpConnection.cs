using System.Diagnostics;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Http.Io;

namespace BenchDashboard.Runner.Http.Lean;

/// <summary>
/// One client connection of the lean engine: a socket connected on demand to an address the target policy
/// allows (for https://, with TLS over it), and the buffer its answers are read into. A worker's variants that
/// share a connection key send on one connection (see <see cref="SocketsHttpConnection"/>), one request at a time. After an answer that does not leave the
/// connection reusable, a failure or a timeout, the socket is closed and the next request connects afresh.
/// </summary>
/// <param name="serverCertificate">Overrides the check of an https:// target's certificate; null: the system's trust store.</param>
sealed class LeanHttpConnection(TargetPolicy policy, bool blocking, RemoteCertificateValidationCallback? serverCertificate = null) : IDisposable
{
    /// <summary>What a connection reads into at first: room for any usual header line and a read's worth of body.</summary>
    internal const int InitialBufferBytes = 16 * 1024;

    /// <summary>
    /// What it grows to when a header line does not fit, or a read fills it (a large body): room for the longest line
    /// the parser accepts with a read's worth beside it. Grown only when needed, so thousands of idle connections
    /// do not each hold the largest.
    /// </summary>
    internal const int LargestBufferBytes = ResponseParser.MaxHeaderBytes + 16 * 1024;

    byte[] buffer = GC.AllocateUninitializedArray<byte>(InitialBufferBytes);
    Socket? socket;
    SslStream? tls;
    int start, end;

    /// <summary>Sends with blocking calls on the caller's thread (<see cref="BlockingIo"/> says why); never asynchronous calls on the same socket.</summary>
    public bool Blocking { get; } = blocking;

    public bool IsConnected => socket is not null;

    /// <summary>The receive buffer's size now.</summary>
    internal int BufferBytes => buffer.Length;

    /// <summary>The Stopwatch timestamp at which the answer's final headers had all arrived.</summary>
    public long HeadersAt { get; private set; }

    /// <summary>Connects if there is no connection, and returns the connect's ticks; null when the connection was reused.</summary>
    public async ValueTask<long?> ConnectAsync<TIo>(LeanRequest request, CancellationToken ct) where TIo : struct, IIoAdapter
    {
        if (socket is not null) return null;
        var begin = Stopwatch.GetTimestamp();
        // An IP literal's addresses are known at once; a name is resolved before a blocking connect.
        var addresses = await TIo.Await(policy.AllowedAddressesAsync(request.Host, ct));
        var fresh = NewSocket();
        try
        {
            await TIo.ConnectAsync(fresh, addresses, request.Port, ct);
        }
        catch
        {
            fresh.Dispose();
            throw;
        }
        socket = fresh;
        // The handshake belongs to the request's time, not to its connect: SocketsHttpHandler's connect callback,
        // which times the other engine's connects, ends before its handshake too.
        var ticks = Stopwatch.GetTimestamp() - begin;
        if (request.IsHttps) await HandshakeAsync<TIo>(fresh, request, ct);
        return ticks;
    }

    async ValueTask HandshakeAsync<TIo>(Socket connected, LeanRequest request, CancellationToken ct) where TIo : struct, IIoAdapter
    {
        var stream = tls = new SslStream(new NetworkStream(connected, ownsSocket: true));
        try
        {
            await TIo.AuthenticateAsync(stream, connected, TlsOptions(request), ct);
        }
        catch
        {
            Close();
            throw;
        }
    }

    SslClientAuthenticationOptions TlsOptions(LeanRequest request) => new()
    {
        TargetHost = request.Host,
        ApplicationProtocols = [SslApplicationProtocol.Http11],
        RemoteCertificateValidationCallback = serverCertificate,
    };

    /// <summary>Sends the request and reads its answer into <paramref name="parser"/> to its end.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))] // its box reused: its one caller awaits it once
    public async ValueTask ExchangeAsync<TIo>(LeanRequest request, ResponseParser parser, CancellationToken ct) where TIo : struct, IIoAdapter
    {
        var s = socket!;
        var abort = TIo.CloseOnCancel(s, ct);
        try
        {
            if (tls is { } stream)
            {
                await TIo.WriteAsync(stream, request.Bytes, ct);
                while (!Take(parser)) Received(parser, await TIo.ReadAsync(stream, buffer.AsMemory(end), ct));
            }
            else
            {
                for (var sent = 0; sent < request.Bytes.Length;) sent += await TIo.SendAsync(s, request.Bytes.AsMemory(sent), ct);
                while (!Take(parser)) Received(parser, await TIo.ReceiveAsync(s, buffer.AsMemory(end), ct));
            }
        }
        catch (Exception ex) when (TIo.Blocks && ct.IsCancellationRequested && ex is SocketException or ObjectDisposedException or IOException)
        {
            throw new OperationCanceledException(ct); // the close of IIoAdapter.CloseOnCancel
        }
        finally
        {
            abort.Dispose(); // waits for a close that had begun: after it, a cancel can no longer close the socket
        }
        Finished(request, parser);
        // A blocking exchange whose timeout fired as the answer completed: the answer stands, and the socket it closed is not reused.
        if (TIo.Blocks && ct.IsCancellationRequested) Close();
    }

    /// <summary>Offers the parser what has arrived; true once the answer is complete.</summary>
    bool Take(ResponseParser parser)
    {
        start += parser.Feed(buffer.AsSpan(start, end - start));
        if (HeadersAt == 0 && parser.HeadersDone) HeadersAt = Stopwatch.GetTimestamp();
        if (parser.Complete) return true;
        if (start == end)
        {
            // Reads filled the whole buffer and the parser took it all: a large body, read from now on in larger pieces.
            if (end == buffer.Length && buffer.Length < LargestBufferBytes) buffer = GC.AllocateUninitializedArray<byte>(LargestBufferBytes);
            start = end = 0;
        }
        else if (end == buffer.Length)
        {
            // The parser waits for the rest of a line: move it to the front to make room for the rest, or grow.
            if (start == 0) Grow();
            else
            {
                buffer.AsSpan(start, end - start).CopyTo(buffer);
                end -= start;
                start = 0;
            }
        }
        return false;
    }

    /// <summary>Makes room for a line that fills the whole buffer from its start.</summary>
    void Grow()
    {
        if (buffer.Length == LargestBufferBytes) throw new InvalidResponseException("a line of the response is longer than the receive buffer");
        var larger = GC.AllocateUninitializedArray<byte>(LargestBufferBytes);
        buffer.AsSpan(0, end).CopyTo(larger);
        buffer = larger;
    }

    void Received(ResponseParser parser, int read)
    {
        if (read > 0) end += read;
        else
        {
            parser.EndOfStream();
            if (HeadersAt == 0 && parser.HeadersDone) HeadersAt = Stopwatch.GetTimestamp();
        }
    }

    void Finished(LeanRequest request, ResponseParser parser)
    {
        // No request is pipelined, so bytes past the answer are not the next one's: a connection that sent them is not reused.
        if (!parser.KeepAlive || request.AsksClose || start != end) Close();
        start = end = 0;
    }

    /// <summary>Starts the next exchange's timing.</summary>
    public void Begin() => HeadersAt = 0;

    /// <summary>Drops the connection: after a failure its state is unknown.</summary>
    public void Close()
    {
        tls?.Dispose();
        tls = null;
        socket?.Dispose();
        socket = null;
        start = end = 0;
    }

    static Socket NewSocket() => new(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };

    public void Dispose() => Close();
}
