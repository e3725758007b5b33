namespace BenchDashboard.Runner.Execution;

/// <summary>
/// An operation that can run out of work before the count or the duration does (a journey's data file read each row
/// once). The <see cref="LoadDriver"/> asks before each operation, before its sample is numbered: false ends the load
/// as a used-up count would, so no operation starts that has nothing to work on and every sample is a whole one.
/// Only operations that can run out implement it: the others' hot path has no call more.
/// </summary>
public interface IFiniteOperation
{
    /// <summary>Takes the work for the next operation on <paramref name="worker"/>; false when none is left.</summary>
    bool TryStart(int worker);
}
