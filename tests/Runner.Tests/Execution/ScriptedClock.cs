using System.Diagnostics;

namespace BenchDashboard.Runner.Tests.Execution;

/// <summary>
/// A clock the test moves by hand, in Stopwatch ticks, so seconds of live figures pass without sleeping. It starts
/// well above 0, which <see cref="LiveRunStatsBefore"/> read as "no sample yet".
/// </summary>
sealed class ScriptedClock
{
    long now = Stopwatch.Frequency * 1_000;

    public long Read() => Volatile.Read(ref now);

    public void Advance(double seconds) => Interlocked.Add(ref now, (long)(seconds * Stopwatch.Frequency));
}
