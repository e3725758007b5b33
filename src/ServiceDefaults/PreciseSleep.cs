using System.Diagnostics;
using System.Runtime.InteropServices;

namespace BenchDashboard.ServiceDefaults;

/// <summary>
/// Sleeps until a Stopwatch timestamp without spinning. Thread.Sleep and timers round to whole milliseconds;
/// on Linux clock_nanosleep wakes within tens of microseconds (the kernel's high-resolution timers), which is
/// what keeps an open run's send lag far below a millisecond at 1,000 operations a second without burning a core.
/// Elsewhere it sleeps whole milliseconds and yields for the rest.
/// </summary>
public static class PreciseSleep
{
    static readonly double NanosecondsPerTick = 1e9 / Stopwatch.Frequency;

    const int ClockMonotonic = 1;

    [StructLayout(LayoutKind.Sequential)]
    struct Timespec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [DllImport("libc", EntryPoint = "clock_nanosleep")]
    static extern int ClockNanosleep(int clock, int flags, ref Timespec request, IntPtr remaining);

    static readonly bool Nanosleep = OperatingSystem.IsLinux();

    /// <summary>Returns at <paramref name="timestamp"/> or a little after; at once if it has passed. Wakes at least every 50 ms to see a cancel.</summary>
    public static void Until(long timestamp, CancellationToken ct)
    {
        while (true)
        {
            ct.ThrowIfCancellationRequested();
            var remainingNs = (long)((timestamp - Stopwatch.GetTimestamp()) * NanosecondsPerTick);
            if (remainingNs <= 0) return;
            var ns = Math.Min(remainingNs, 50_000_000);
            if (Nanosleep)
            {
                var request = new Timespec { Seconds = ns / 1_000_000_000, Nanoseconds = ns % 1_000_000_000 };
                ClockNanosleep(ClockMonotonic, 0, ref request, IntPtr.Zero); // returns early on a signal: the loop goes on
            }
            else if (ns > 1_500_000) Thread.Sleep((int)(ns / 1_000_000) - 1);
            else Thread.Yield();
        }
    }
}
