using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;

namespace BenchDashboard.Runner.Http.Lean;

/// <summary>
/// Lets a connection's next request wait until the socket engine has handed out every answer that arrived with its
/// own. When a target answers several connections at once, the engine's one thread takes their events in turn; a
/// connection that sent its next request straight away would make every answer after it wait for that send (a
/// loopback send runs the server's side of TCP on the sender's thread) before its time is read, and their latency
/// would grow with the answers ahead of them. So a connection awaits <see cref="Next"/> between two requests: its
/// continuation is queued, and one datagram to a loopback socket of its own wakes the engine once more, after the
/// events it is handling now (they were all taken from one wait), to send every queued request. wrk orders its work
/// the same way: it reads what is ready, and writes in its loop's next pass.
/// </summary>
/// <remarks>
/// Only worth its cost (a datagram and two receives per wake, for however many requests it sends) when socket
/// continuations run inline on the engine's thread and several connections share it; the open model must not use
/// it, as its requests are due at a time.
/// </remarks>
sealed class BatchTurn : IDisposable
{
    readonly Socket bell = new(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
    readonly byte[] ring = [1];
    readonly byte[] heard = new byte[16];
    readonly Lock gate = new();
    List<Action> waiting = [], running = [];
    bool rung, closed;

    public BatchTurn()
    {
        bell.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        bell.Connect(bell.LocalEndPoint!); // to itself: nothing else can reach it
        _ = ListenAsync();
    }

    /// <summary>Continues the caller after the events the socket engine is handling now.</summary>
    public Awaitable Next() => new(this);

    void Enqueue(Action continuation)
    {
        bool ringNow, closedNow;
        lock (gate)
        {
            closedNow = closed;
            if (!closed) waiting.Add(continuation);
            ringNow = !rung;
            rung = true;
        }
        if (closedNow) continuation();
        else if (ringNow)
        {
            try
            {
                bell.Send(ring);
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
                Close();
            }
        }
    }

    async Task ListenAsync()
    {
        try
        {
            while (true)
            {
                await bell.ReceiveAsync(heard, SocketFlags.None);
                RunWaiting();
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            Close();
        }
    }

    /// <summary>On the bell's wake: runs what waits now, in the order it came.</summary>
    void RunWaiting()
    {
        List<Action> now;
        lock (gate)
        {
            (now, waiting, running) = (waiting, running, waiting);
            rung = false;
        }
        // A continuation that waits again joins the other list and rings again: it runs on the next wake, not this one.
        foreach (var continuation in now) continuation();
        now.Clear();
    }

    /// <summary>The bell is gone (the run has ended): whatever waits runs now, and whatever comes later at once.</summary>
    void Close()
    {
        List<Action> left;
        lock (gate)
        {
            closed = true;
            (left, waiting) = (waiting, []);
        }
        foreach (var continuation in left) continuation();
    }

    public void Dispose() => bell.Dispose();

    public readonly struct Awaitable(BatchTurn turn) : ICriticalNotifyCompletion
    {
        public Awaitable GetAwaiter() => this;
        public bool IsCompleted => false;
        public void GetResult() { }
        public void OnCompleted(Action continuation) => turn.Enqueue(continuation);
        public void UnsafeOnCompleted(Action continuation) => turn.Enqueue(continuation);
    }
}
