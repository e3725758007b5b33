using System.Net;
using System.Net.Http;
using System.Net.Security;
using System.Net.Sockets;

namespace BenchDashboard.Runner.Http.Io;

/// <summary>
/// The I/O calls an HTTP engine makes, blocking or asynchronous, so that each engine's connect, handshake and
/// exchange are written once as a generic method over a struct <c>TIo</c> (<see cref="BlockingIo"/> or
/// <see cref="AsyncIo"/>) and compiled once for each: the blocking one returns completed tasks, so a method over it
/// runs to its end on the caller's thread with nothing queued or boxed, as System.Net.Security's SslStream does
/// over its read-write adapters.
/// </summary>
/// <remarks>
/// A blocking call takes no token: a timeout or the run's cancel ends it by closing what it waits on
/// (<see cref="CloseOnCancel"/>), and the exception that close raises is then reported as a cancel.
/// </remarks>
interface IIoAdapter
{
    /// <summary>Whether its calls block the caller's thread until they are done.</summary>
    static abstract bool Blocks { get; }

    /// <summary>A task of this process (a name's resolution) awaited, or waited for.</summary>
    static abstract ValueTask<T> Await<T>(Task<T> task);

    /// <summary>Blocking: closes <paramref name="resource"/> when <paramref name="ct"/> is cancelled. Asynchronous: nothing, the calls take the token.</summary>
    static abstract CancellationTokenRegistration CloseOnCancel(IDisposable resource, CancellationToken ct);

    static abstract ValueTask ConnectAsync(Socket socket, IPAddress[] addresses, int port, CancellationToken ct);
    static abstract ValueTask AuthenticateAsync(SslStream tls, Socket underlying, SslClientAuthenticationOptions options, CancellationToken ct);
    static abstract ValueTask<int> SendAsync(Socket socket, ReadOnlyMemory<byte> bytes, CancellationToken ct);
    static abstract ValueTask<int> ReceiveAsync(Socket socket, Memory<byte> buffer, CancellationToken ct);
    static abstract ValueTask WriteAsync(Stream stream, ReadOnlyMemory<byte> bytes, CancellationToken ct);
    static abstract ValueTask<int> ReadAsync(Stream stream, Memory<byte> buffer, CancellationToken ct);
    static abstract ValueTask<HttpResponseMessage> SendAsync(HttpMessageInvoker invoker, HttpRequestMessage request, CancellationToken ct);
    static abstract ValueTask<Stream> ReadAsStreamAsync(HttpContent content, CancellationToken ct);
}
