using System.Net;
using System.Net.Http;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace BenchDashboard.Runner.Http.Io;

/// <summary>
/// Blocking I/O on the caller's thread: every call is done when it returns, and its task is already complete. The
/// thread sleeps in the kernel's receive and wakes with the answer, where an asynchronous read must first wake the
/// socket engine and then hand its continuation on. Connects and handshakes are blocking too: a socket that ever
/// ran an asynchronous operation stays non-blocking, and its "blocking" reads then go through the engine anyway.
/// </summary>
readonly struct BlockingIo : IIoAdapter
{
    public static bool Blocks => true;
    public static ValueTask<T> Await<T>(Task<T> task) => new(task.GetAwaiter().GetResult());

    public static CancellationTokenRegistration CloseOnCancel(IDisposable resource, CancellationToken ct) =>
        ct.UnsafeRegister(static r => ((IDisposable)r!).Dispose(), resource);

    public static ValueTask ConnectAsync(Socket socket, IPAddress[] addresses, int port, CancellationToken ct)
    {
        using (CloseOnCancel(socket, ct)) Cancellable(() => socket.Connect(addresses, port), ct);
        return ValueTask.CompletedTask;
    }

    public static ValueTask AuthenticateAsync(SslStream tls, Socket underlying, SslClientAuthenticationOptions options, CancellationToken ct)
    {
        using (CloseOnCancel(underlying, ct)) Cancellable(() => tls.AuthenticateAsClient(options), ct);
        return ValueTask.CompletedTask;
    }

    public static ValueTask<int> SendAsync(Socket socket, ReadOnlyMemory<byte> bytes, CancellationToken ct) => new(socket.Send(bytes.Span, SocketFlags.None));
    public static ValueTask<int> ReceiveAsync(Socket socket, Memory<byte> buffer, CancellationToken ct) => new(socket.Receive(buffer.Span, SocketFlags.None));

    // Through the arrays: a stream that overrides only the array overloads (SslStream) would copy a span through a rented one.
    public static ValueTask WriteAsync(Stream stream, ReadOnlyMemory<byte> bytes, CancellationToken ct)
    {
        var array = Array(bytes);
        stream.Write(array.Array!, array.Offset, array.Count);
        return ValueTask.CompletedTask;
    }

    public static ValueTask<int> ReadAsync(Stream stream, Memory<byte> buffer, CancellationToken ct)
    {
        var array = Array(buffer);
        return new(stream.Read(array.Array!, array.Offset, array.Count));
    }

    static ArraySegment<byte> Array(ReadOnlyMemory<byte> memory) =>
        MemoryMarshal.TryGetArray(memory, out var array) ? array : throw new ArgumentException("Blocking stream calls take memory over an array.", nameof(memory));
    public static ValueTask<HttpResponseMessage> SendAsync(HttpMessageInvoker invoker, HttpRequestMessage request, CancellationToken ct) => new(invoker.Send(request, ct));
    public static ValueTask<Stream> ReadAsStreamAsync(HttpContent content, CancellationToken ct) => new(content.ReadAsStream(ct));

    /// <summary>A call ended by <see cref="CloseOnCancel"/> throws what a closed socket throws: that is reported as the cancel it was.</summary>
    static void Cancellable(Action call, CancellationToken ct)
    {
        try
        {
            call();
        }
        catch (Exception) when (ct.IsCancellationRequested)
        {
            throw new OperationCanceledException(ct);
        }
        ct.ThrowIfCancellationRequested();
    }
}
