using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace BenchDashboard.TestSupport;

/// <summary>One thing a <see cref="ScriptedTcpTarget"/> does in answer to a request.</summary>
public abstract record ScriptStep
{
    /// <summary>Sends these bytes (with Nagle off, each send leaves as its own segment if the client keeps up).</summary>
    public static ScriptStep Send(byte[] bytes) => new SendStep(bytes);

    /// <summary>Sends this text as Latin-1 bytes.</summary>
    public static ScriptStep Send(string text) => new SendStep(Encoding.Latin1.GetBytes(text));

    public static ScriptStep Pause(int ms) => new PauseStep(ms);

    /// <summary>Ends the connection with a FIN: the client reads the end of the stream.</summary>
    public static readonly ScriptStep Close = new CloseStep(WithReset: false);

    /// <summary>Ends the connection with a RST: the client's next read or write fails.</summary>
    public static readonly ScriptStep Reset = new CloseStep(WithReset: true);

    /// <summary>Sends the text one byte at a time with a pause after each, so the client gets it in many reads.</summary>
    public static IEnumerable<ScriptStep> Trickle(string text, int pauseMs) =>
        Encoding.Latin1.GetBytes(text).SelectMany(b => new[] { Send([b]), Pause(pauseMs) });
}

sealed record SendStep(byte[] Bytes) : ScriptStep;

sealed record PauseStep(int Ms) : ScriptStep;

sealed record CloseStep(bool WithReset) : ScriptStep;

/// <summary>A request a <see cref="ScriptedTcpTarget"/> read: where it came and what the client sent.</summary>
/// <param name="Index">Its number among every request the target read, from 0, in the order they were read.</param>
/// <param name="Connection">Its connection's number, from 0, in the order they were accepted.</param>
/// <param name="IndexOnConnection">Its number among its connection's requests, from 0.</param>
/// <param name="Head">The request line and headers as sent, up to and including the blank line.</param>
/// <param name="Body">The body, read by the request's Content-Length (none without one).</param>
public sealed record ScriptedRequest(int Index, int Connection, int IndexOnConnection, string Head, byte[] Body)
{
    public string RequestLine => Head[..Head.IndexOf("\r\n", StringComparison.Ordinal)];

    /// <summary>Each header as sent, in order; names keep their case.</summary>
    public IReadOnlyList<(string Name, string Value)> Headers =>
        Head.Split("\r\n").Skip(1).Where(l => l.Length > 0)
            .Select(l => (l[..l.IndexOf(':')], l[(l.IndexOf(':') + 1)..].Trim())).ToList();

    /// <summary>The value of the header of that name (any case); null if absent. Several are joined with ", ".</summary>
    public string? Header(string name)
    {
        var values = Headers.Where(h => h.Name.Equals(name, StringComparison.OrdinalIgnoreCase)).Select(h => h.Value).ToList();
        return values.Count == 0 ? null : string.Join(", ", values);
    }
}

/// <summary>
/// A raw TCP server on 127.0.0.1 that answers each request it reads from a script: the steps for that request
/// (send bytes, pause, close with FIN or RST). Unless the steps end the connection it reads the next request on it.
/// It records every request as sent, so tests can check what a client sends and how it frames answers it may
/// never have seen (malformed, trickled, cut short): the HTTP engines' agreement and fault tests.
/// </summary>
public sealed class ScriptedTcpTarget : IAsyncDisposable
{
    readonly TcpListener listener = new(IPAddress.Loopback, 0);
    readonly CancellationTokenSource stop = new();
    readonly Func<ScriptedRequest, IEnumerable<ScriptStep>> script;
    readonly ConcurrentQueue<ScriptedRequest> requests = new();
    readonly ConcurrentBag<Socket> sockets = [];
    readonly ConcurrentBag<Task> serving = [];
    readonly Task acceptLoop;
    int connections, requestCount, sentAfterEnd;

    /// <param name="script">The steps that answer a request, given the request (its numbers and what was sent).</param>
    public ScriptedTcpTarget(Func<ScriptedRequest, IEnumerable<ScriptStep>> script)
    {
        this.script = script;
        listener.Start();
        acceptLoop = AcceptAsync();
    }

    /// <summary>Answers every request with the same text, keeping the connection.</summary>
    public ScriptedTcpTarget(string response) : this(_ => [ScriptStep.Send(response)]) { }

    public int Port => ((IPEndPoint)listener.LocalEndpoint).Port;

    public Uri Url(string path = "/") => new($"http://127.0.0.1:{Port}{path}");

    /// <summary>Connections accepted so far.</summary>
    public int Connections => Volatile.Read(ref connections);

    /// <summary>
    /// Connections on which the client sent more after the script had ended them with <see cref="ScriptStep.Close"/>
    /// (those bytes are read and dropped, never answered): a client that honours "Connection: close" sends none.
    /// </summary>
    public int SentAfterEnd => Volatile.Read(ref sentAfterEnd);

    /// <summary>Requests read so far, in the order they were read.</summary>
    public IReadOnlyList<ScriptedRequest> Requests => requests.OrderBy(r => r.Index).ToList();

    async Task AcceptAsync()
    {
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var socket = await listener.AcceptSocketAsync(stop.Token);
                socket.NoDelay = true;
                sockets.Add(socket);
                serving.Add(ServeAsync(socket, Interlocked.Increment(ref connections) - 1));
            }
        }
        catch (OperationCanceledException) { }
        catch (ObjectDisposedException) { }
        catch (SocketException) when (stop.IsCancellationRequested) { }
    }

    async Task ServeAsync(Socket socket, int connection)
    {
        var reader = new RequestReader(socket, stop.Token);
        try
        {
            for (var onConnection = 0; ; onConnection++)
            {
                if (await reader.ReadAsync() is not var (head, body)) break; // the client closed
                var request = new ScriptedRequest(Interlocked.Increment(ref requestCount) - 1, connection, onConnection, head, body);
                requests.Enqueue(request);
                if (!await AnswerAsync(socket, script(request))) return;
            }
            socket.Dispose();
        }
        catch (Exception) when (stop.IsCancellationRequested) { }
        catch (SocketException) { socket.Dispose(); }
        catch (ObjectDisposedException) { }
    }

    /// <summary>Plays the steps; false when they ended the connection.</summary>
    async Task<bool> AnswerAsync(Socket socket, IEnumerable<ScriptStep> steps)
    {
        foreach (var step in steps)
            switch (step)
            {
                case SendStep send:
                    await socket.SendAsync(send.Bytes, SocketFlags.None, stop.Token);
                    break;
                case PauseStep pause:
                    await Task.Delay(pause.Ms, stop.Token);
                    break;
                case CloseStep { WithReset: true }:
                    socket.LingerState = new LingerOption(true, 0); // a close with zero linger sends RST
                    socket.Dispose();
                    return false;
                case CloseStep:
                    socket.Shutdown(SocketShutdown.Send);
                    if (socket.Available > 0 || await DrainAsync(socket)) Interlocked.Increment(ref sentAfterEnd);
                    socket.Dispose();
                    return false;
            }
        return true;
    }

    /// <summary>
    /// Reads until the client closes too (or a short while passes): closing with unread data queued would send RST
    /// rather than the FIN the script asked for. True if anything arrived.
    /// </summary>
    async Task<bool> DrainAsync(Socket socket)
    {
        using var bound = CancellationTokenSource.CreateLinkedTokenSource(stop.Token);
        bound.CancelAfter(TimeSpan.FromSeconds(5));
        var buffer = new byte[4096];
        var any = false;
        try
        {
            while (await socket.ReceiveAsync(buffer, SocketFlags.None, bound.Token) > 0) any = true;
        }
        catch (OperationCanceledException) when (!stop.IsCancellationRequested) { }
        catch (SocketException) { }
        return any;
    }

    public async ValueTask DisposeAsync()
    {
        stop.Cancel();
        listener.Stop();
        await acceptLoop;
        foreach (var socket in sockets) socket.Dispose();
        await Task.WhenAll(serving);
        stop.Dispose();
    }

    /// <summary>Reads requests off one connection: a head up to its blank line, then a body of its Content-Length.</summary>
    sealed class RequestReader(Socket socket, CancellationToken ct)
    {
        const int MaxHeadBytes = 1024 * 1024;
        readonly byte[] buffer = new byte[16 * 1024];
        readonly List<byte> pending = [];

        /// <summary>The next request; null when the client closed (or reset) between requests.</summary>
        public async Task<(string Head, byte[] Body)?> ReadAsync()
        {
            int end;
            while ((end = HeadEnd()) < 0)
                if (pending.Count > MaxHeadBytes || !await FillAsync()) return null;
            var head = Encoding.Latin1.GetString(pending.GetRange(0, end).ToArray());
            pending.RemoveRange(0, end);
            var length = ContentLength(head);
            while (pending.Count < length)
                if (!await FillAsync()) return null;
            var body = pending.GetRange(0, length).ToArray();
            pending.RemoveRange(0, length);
            return (head, body);
        }

        int HeadEnd()
        {
            for (var i = 3; i < pending.Count; i++)
                if (pending[i] == '\n' && pending[i - 1] == '\r' && pending[i - 2] == '\n' && pending[i - 3] == '\r') return i + 1;
            return -1;
        }

        static int ContentLength(string head) =>
            head.Split("\r\n").FirstOrDefault(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase)) is { } line
                ? int.Parse(line["Content-Length:".Length..].Trim())
                : 0;

        async Task<bool> FillAsync()
        {
            int read;
            try
            {
                read = await socket.ReceiveAsync(buffer, SocketFlags.None, ct);
            }
            catch (SocketException)
            {
                return false;
            }
            pending.AddRange(buffer.AsSpan(0, read));
            return read > 0;
        }
    }
}
