using System.Net;
using System.Net.Http;
using System.Net.Security;
using System.Net.Sockets;

namespace BenchDashboard.Runner.Http.Io;

/// <summary>Asynchronous I/O: every call takes the token and yields the thread while it waits.</summary>
readonly struct AsyncIo : IIoAdapter
{
    public static bool Blocks => false;
    public static ValueTask<T> Await<T>(Task<T> task) => new(task);
    public static CancellationTokenRegistration CloseOnCancel(IDisposable resource, CancellationToken ct) => default;

    public static ValueTask ConnectAsync(Socket socket, IPAddress[] addresses, int port, CancellationToken ct) => socket.ConnectAsync(addresses, port, ct);
    public static ValueTask AuthenticateAsync(SslStream tls, Socket underlying, SslClientAuthenticationOptions options, CancellationToken ct) => new(tls.AuthenticateAsClientAsync(options, ct));
    public static ValueTask<int> SendAsync(Socket socket, ReadOnlyMemory<byte> bytes, CancellationToken ct) => socket.SendAsync(bytes, SocketFlags.None, ct);
    public static ValueTask<int> ReceiveAsync(Socket socket, Memory<byte> buffer, CancellationToken ct) => socket.ReceiveAsync(buffer, SocketFlags.None, ct);
    public static ValueTask WriteAsync(Stream stream, ReadOnlyMemory<byte> bytes, CancellationToken ct) => stream.WriteAsync(bytes, ct);
    public static ValueTask<int> ReadAsync(Stream stream, Memory<byte> buffer, CancellationToken ct) => stream.ReadAsync(buffer, ct);
    public static ValueTask<HttpResponseMessage> SendAsync(HttpMessageInvoker invoker, HttpRequestMessage request, CancellationToken ct) => new(invoker.SendAsync(request, ct));
    public static ValueTask<Stream> ReadAsStreamAsync(HttpContent content, CancellationToken ct) => new(content.ReadAsStreamAsync(ct));
}
