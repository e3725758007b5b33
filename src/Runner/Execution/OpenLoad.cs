using System.Collections.Concurrent;
using System.Diagnostics;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;
using BenchDashboard.ServiceDefaults;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Drives an open run. A pacer on its own thread goes through the profile's arrivals in order: it sleeps until
/// the next one is due (<see cref="PreciseSleep"/>), then starts every operation that is due by now, each on a
/// free slot (a connection or worker); when all are busy the operation waits for one, and the ones behind it
/// wait too, in order. Nothing is dropped: each due operation is started, late if need be, and its due time
/// goes with it, so its sample can count the wait (corrected latency) apart from the service time. The due
/// times come from the schedule, not from the pacer's clock, so coarse wake-ups delay operations but never
/// shift the schedule.
/// </summary>
public static class OpenLoad
{
    /// <param name="operate">Starts operation k on a slot, due at a Stopwatch timestamp; completes when its sample is recorded.</param>
    /// <param name="admit">Asked with a slot before each operation takes it (<see cref="IFiniteOperation"/>): false ends the schedule, and the operations under way finish.</param>
    public static async Task RunAsync(LoadProfile profile, int slots, Func<int, long, long, Task> operate, OpenLoadMonitor monitor, CancellationToken ct,
        Func<int, bool>? admit = null)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        using var free = new BlockingCollection<int>(new ConcurrentQueue<int>(Enumerable.Range(0, slots)));
        var finished = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var pending = 1; // the pacer itself, then one per operation in flight
        Exception? failure = null;
        void Done()
        {
            if (Interlocked.Decrement(ref pending) == 0) finished.TrySetResult();
        }

        async Task RunOneAsync(int slot, long k, long due)
        {
            try
            {
                await operate(slot, k, due);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
            }
            catch (Exception ex)
            {
                // Not a fault of the target (those are samples): the run cannot go on.
                Interlocked.CompareExchange(ref failure, ex, null);
                stop.Cancel();
            }
            finally
            {
                free.Add(slot);
                Done();
            }
        }

        var start = Stopwatch.GetTimestamp();
        monitor.Started(start);
        var pacer = new Thread(() =>
        {
            try
            {
                // Behind a wait for a connection, operations queue: late because of the target, not the pacer,
                // until the pacer is on time again.
                var backlog = false;
                for (long k = 0; profile.DueNs(k) is { } dueNs; k++)
                {
                    var due = start + Ticks.FromNanoseconds(dueNs);
                    PreciseSleep.Until(due, stop.Token);
                    if (Ticks.ToNanoseconds(Stopwatch.GetTimestamp() - due) < OpenLoadReport.LateNs) backlog = false;
                    if (!free.TryTake(out var slot))
                    {
                        slot = free.Take(stop.Token);
                        backlog = true;
                    }
                    if (admit is not null && !admit(slot))
                    {
                        free.Add(slot);
                        break;
                    }
                    monitor.Dispatched(due, Stopwatch.GetTimestamp(), heldByTarget: backlog);
                    Interlocked.Increment(ref pending);
                    _ = RunOneAsync(slot, k, due); // runs on this thread up to its first wait: the request is on its way
                }
            }
            catch (OperationCanceledException)
            {
            }
            finally
            {
                Done();
            }
        }) { IsBackground = true, Name = "open-model pacer" };
        pacer.Start();

        await finished.Task;
        if (failure is not null) throw failure;
        ct.ThrowIfCancellationRequested();
    }
}
