using System.Diagnostics;

namespace BenchDashboard.Core.Runs;

/// <summary>
/// Stopwatch ticks (1 ns on Linux, 100 ns on Windows) to nanoseconds and back, exactly: no rounding to ms. In
/// 128 bits: a 64-bit <c>ns × 10⁹</c> overflows past 9.2 s.
/// </summary>
public static class Ticks
{
    public static long ToNanoseconds(long ticks) => (long)((Int128)ticks * 1_000_000_000 / Stopwatch.Frequency);

    public static long FromNanoseconds(long nanoseconds) => (long)((Int128)nanoseconds * Stopwatch.Frequency / 1_000_000_000);
}
