using System.Diagnostics;
using System.Globalization;
using BenchDashboard.Core.Benchmarks;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Statistics;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Watches the pacer of an open run, to tell apart the two reasons an operation starts late: every connection
/// was busy (the target cannot keep up, and the corrected latency must count the wait), or the generator
/// itself was late while connections were free (this machine cannot keep up, and the run says so rather than
/// let a slow client pass for a slow service). Its findings become notes and warnings of the run.
/// </summary>
public sealed class OpenLoadMonitor
{
    readonly Lock gate = new();
    // Bounded (a run of millions of operations must not grow the runner's memory): the note's lag figures are
    // within 1/1024 (HdrHistogram, 3 digits); the run's exact lag ladder comes from its samples.
    readonly LiveHistogram pacerLagNs = new();
    readonly Dictionary<int, (int Due, int Dispatched, int Held)> seconds = [];
    long start;
    int operations, held;
    long longestWaitNs;

    public void Started(long timestamp) => start = timestamp;

    /// <summary>An operation due at <paramref name="due"/> was started at <paramref name="started"/>.</summary>
    /// <param name="heldByTarget">It waited for a free connection, or queued behind operations that did.</param>
    public void Dispatched(long due, long started, bool heldByTarget)
    {
        var lateNs = Ticks.ToNanoseconds(started - due);
        var dueSecond = (int)((due - start) / Stopwatch.Frequency);
        var startSecond = (int)((started - start) / Stopwatch.Frequency);
        lock (gate)
        {
            operations++;
            if (heldByTarget)
            {
                held++;
                longestWaitNs = Math.Max(longestWaitNs, lateNs);
            }
            else pacerLagNs.Add(lateNs);
            var d = seconds.GetValueOrDefault(dueSecond);
            seconds[dueSecond] = (d.Due + 1, d.Dispatched, d.Held + (heldByTarget ? 1 : 0));
            var s = seconds.GetValueOrDefault(startSecond);
            seconds[startSecond] = (s.Due, s.Dispatched + 1, s.Held);
        }
    }

    /// <summary>Adds what was seen to the run's notes: the pacer's own lag, and a warning when the target or the generator could not keep up.</summary>
    public void Report(RunNotes notes, int slots, string? phase = null)
    {
        lock (gate)
        {
            if (operations == 0) return;
            var of = phase is null ? "" : $" ({phase})";
            long? p50 = pacerLagNs.ValueAt(500), p99 = pacerLagNs.ValueAt(990);
            if (p50 is not null)
                notes.Add($"Open model{of}: {operations:N0} operations on a schedule; the generator started those that did not wait for a connection {Ms(p50.Value)} ms late at the median, {Ms(p99!.Value)} ms at p99, {Ms(pacerLagNs.MaxNs)} ms at most.");
            if (held > 0)
                notes.AddWarning($"The target could not keep up with the schedule{of}: {held:N0} of {operations:N0} operations were due while all {slots} connections were busy (or behind ones that were), and waited for one (up to {Ms(longestWaitNs)} ms). Their corrected latency counts that wait; their service time does not.");

            // Seconds in which the generator started fewer than 99 % of the operations due while none had to
            // wait for a connection: the last second is left out (operations due at its end start in the next).
            var last = seconds.Keys.Count == 0 ? 0 : seconds.Keys.Max();
            var behind = seconds.Where(s => s.Key < last && s.Value.Held == 0 && s.Value.Due > 0 && s.Value.Dispatched < 0.99 * s.Value.Due).ToList();
            if (behind.Count > 0)
                notes.AddWarning($"The generator itself could not keep up{of} in {behind.Count} of {last + 1} seconds: it started fewer than 99 % of the operations due while connections were free (its lag p99 {Ms(p99 ?? 0)} ms). In those seconds the latencies say as much about this machine as about the target.");
        }
    }

    static string Ms(long ns) => (ns / 1e6).ToString("0.000", CultureInfo.InvariantCulture);
}
