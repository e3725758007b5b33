using System.Diagnostics;
using BenchDashboard.ServiceDefaults;

namespace BenchDashboard.Web.Targets;

/// <summary>
/// Delays that end within about 0.1 ms of their deadline without holding a thread-pool thread: one thread of
/// its own sleeps with <see cref="PreciseSleep"/> (clock_nanosleep) until the earliest deadline, at most
/// 100 µs at a time so one added meanwhile is not missed by more, and completes whatever is due. (Blocking a
/// pool thread per request instead starved the pool at 4 connections on 2 cores: p90 of a 5 ms target went to
/// 10.9 ms.) It wakes only while deadlines are pending.
/// </summary>
static class PreciseDelay
{
    static readonly PriorityQueue<TaskCompletionSource, long> due = new();
    static readonly object gate = new();
    static readonly long Slice = Stopwatch.Frequency / 10_000;
    static Thread? thread;

    public static Task Until(long timestamp)
    {
        if (timestamp <= Stopwatch.GetTimestamp()) return Task.CompletedTask;
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (gate)
        {
            due.Enqueue(done, timestamp);
            if (thread is null)
            {
                thread = new Thread(Loop) { IsBackground = true, Name = "target delays" };
                thread.Start();
            }
            Monitor.Pulse(gate);
        }
        return done.Task;
    }

    static void Loop()
    {
        while (true)
        {
            long next;
            lock (gate)
            {
                while (due.Count == 0) Monitor.Wait(gate);
                var now = Stopwatch.GetTimestamp();
                while (due.TryPeek(out var ready, out var at) && at <= now)
                {
                    due.Dequeue();
                    ready.SetResult();
                }
                if (!due.TryPeek(out _, out next)) continue;
            }
            PreciseSleep.Until(Math.Min(next, Stopwatch.GetTimestamp() + Slice), CancellationToken.None);
        }
    }
}
