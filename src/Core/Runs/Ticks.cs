using System.Diagnostics;

namespace BenchDashboard.Core.Runs;

/// <summary>Stopwatch ticks (1 ns on Linux, 100 ns on Windows) to nanoseconds, exactly: no rounding to ms.</summary>
public static class Ticks
{
    public static long ToNanoseconds(long ticks) => (long)((Int128)ticks * 1_000_000_000 / Stopwatch.Frequency);
}
