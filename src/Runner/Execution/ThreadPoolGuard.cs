namespace BenchDashboard.Runner.Execution;

public static class ThreadPoolGuard
{
    /// <summary>
    /// The pool starts with one thread per core and adds more only every ~0.5 s when work queues up; if
    /// anything else in the process blocks pool threads, continuations of in-flight requests wait and show
    /// up as latency that the target never caused (seen as 0.6–1.2 s outliers in tests), and workers that
    /// run synchronously (an in-process cache) can keep others from starting at all. Keep enough threads
    /// ready for every worker plus the host's own work.
    /// </summary>
    public static void EnsureCovers(int workers)
    {
        ThreadPool.GetMinThreads(out var minWorkers, out var io);
        var wanted = Math.Min(workers + Environment.ProcessorCount + 8, 1024);
        if (minWorkers < wanted) ThreadPool.SetMinThreads(wanted, Math.Max(io, wanted));
    }
}
