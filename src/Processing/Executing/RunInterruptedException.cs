namespace BenchDashboard.Processing.Executing;

/// <summary>
/// Thrown by an executor whose load was cut short by something outside the benchmark (a runner agent lost mid-run):
/// the run ends <c>interrupted</c> with <see cref="Exception.Message"/> as its reason, its samples kept.
/// </summary>
public sealed class RunInterruptedException(string reason) : Exception(reason);
