using System.Collections.Concurrent;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// A thread of a run's own, below the measuring threads' priority, for its work that must not take a CPU from
/// them: storing samples and the heartbeat. A pool thread doing that work held a CPU for 0.7-2.4 ms while the
/// target or the event thread were ready to run (bench/stalls.sh): on two cores that is a stall of every
/// request in flight. At a higher nice value the kernel gives those the CPU first.
/// <para>
/// Work runs one item at a time, in the order given. Its caller's continuation does not run on this thread, so
/// a caller never waits for the thread it is on (<see cref="Dispose"/> joins it).
/// </para>
/// </summary>
public sealed class BackgroundThread : IDisposable
{
    readonly BlockingCollection<Action> work = [];
    readonly Thread thread;

    /// <param name="name">The thread's name (the kernel shows 15 characters of it).</param>
    /// <param name="nice">Linux nice value to lower it to; 0 keeps the creator's priority.</param>
    public BackgroundThread(string name, int nice)
    {
        thread = new Thread(() =>
        {
            SchedulingPriority.LowerThisThread(nice);
            foreach (var item in work.GetConsumingEnumerable()) item();
        })
        { IsBackground = true, Name = name };
        thread.Start();
    }

    public Task Run(Action action) => Run(() =>
    {
        action();
        return true;
    });

    public Task<T> Run<T>(Func<T> function)
    {
        var done = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
        work.Add(() =>
        {
            try
            {
                done.SetResult(function());
            }
            catch (Exception ex)
            {
                done.SetException(ex);
            }
        });
        return done.Task;
    }

    /// <summary>Runs what was given before and ends the thread.</summary>
    public void Dispose()
    {
        work.CompleteAdding();
        if (Thread.CurrentThread == thread) return; // it ends once this item returns
        thread.Join();
        work.Dispose();
    }
}
