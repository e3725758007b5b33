using System.Diagnostics;
using BenchDashboard.Core.Runs;
using BenchDashboard.Processing.Executing;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Makes a young runner's measuring paths hot before its first run (<see cref="RunnerOptions.SelfWarmupRequests"/>):
/// every kind that has something of this process's own to measure (<see cref="IBenchmarkExecutor.WarmUpAsync"/>) runs
/// that many operations through its executor and the <see cref="LoadDriver"/>, as a run would, so the JIT has compiled
/// (and tiered up) the code that later measures. Nothing is stored.
/// </summary>
public static class SelfWarmup
{
    /// <returns>Per executor that warmed up (by its type's name), how many of its operations were answered without error.</returns>
    public static async Task<IReadOnlyDictionary<string, int>> RunAsync(IEnumerable<IBenchmarkExecutor> executors, int operations, ILogger logger, CancellationToken ct)
    {
        var answered = new Dictionary<string, int>();
        foreach (var executor in executors)
        {
            var started = Stopwatch.GetTimestamp();
            var name = executor.GetType().Name;
            int? count;
            try
            {
                count = await executor.WarmUpAsync(operations, ct);
            }
            catch (Exception ex) when (ex is not OperationCanceledException || !ct.IsCancellationRequested)
            {
                logger.LogWarning(ex, "Self warm-up of {Executor} failed; its runs are taken without it", name);
                continue;
            }
            if (count is null) continue;
            answered[name] = count.Value;
            logger.LogInformation("Self warm-up of {Executor}: {Answered} operations answered through the measuring path in {Ms:N0} ms",
                name, count, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }
        return answered;
    }

    /// <summary>Runs <paramref name="parameters"/> on <paramref name="executor"/> with a context that counts its answered samples and keeps none.</summary>
    public static async Task<int> CountAnsweredAsync(IBenchmarkExecutor executor, object parameters, CancellationToken ct)
    {
        var answered = 0;
        using var context = new RunContext(new Run { Kind = "self-warm-up", ParametersJson = "{}" }, sample =>
        {
            if (sample.Error == ErrorKind.None) Interlocked.Increment(ref answered);
            return true;
        }, metrics: false) { Parameters = parameters };
        await executor.ExecuteAsync(context, ct);
        return answered;
    }
}
