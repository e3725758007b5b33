using System.Runtime.InteropServices;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// Lowers this process's CPU priority on Linux (a higher nice value), so that when the machine is busy the
/// runner's measurements get the CPU before the dashboard's pages. Linux keeps a nice value per thread and a
/// new thread takes its creator's: every thread there is now is lowered, and the threads made later inherit
/// it. Lowering needs no privilege (raising it back would). Elsewhere it does nothing.
/// </summary>
public static class SchedulingPriority
{
    const int PriorityProcess = 0;

    [DllImport("libc", SetLastError = true)]
    static extern int setpriority(int which, int who, int priority);

    [DllImport("libc")]
    static extern int gettid();

    /// <summary>The calling thread's id as the kernel knows it (0 elsewhere than Linux).</summary>
    public static int CurrentThreadId() => OperatingSystem.IsLinux() ? gettid() : 0;

    /// <summary>
    /// Lowers the calling thread alone (Linux: its nice value; Windows: <see cref="ThreadPriority.BelowNormal"/>);
    /// false where it cannot.
    /// </summary>
    public static bool LowerThisThread(int nice)
    {
        if (nice <= 0) return false;
        if (OperatingSystem.IsLinux()) return setpriority(PriorityProcess, gettid(), nice) == 0;
        if (!OperatingSystem.IsWindows()) return false;
        Thread.CurrentThread.Priority = ThreadPriority.BelowNormal;
        return true;
    }

    /// <param name="keep">A thread to leave as it is (the one that starts runner processes, so they keep the normal priority).</param>
    public static void LowerThisProcess(int nice, ILogger logger, int keep = 0)
    {
        if (!OperatingSystem.IsLinux()) return;
        var lowered = 0;
        foreach (var task in Directory.EnumerateDirectories("/proc/self/task"))
            if (int.TryParse(Path.GetFileName(task), out var tid) && tid != keep && setpriority(PriorityProcess, tid, nice) == 0) lowered++;
        logger.LogInformation("The dashboard runs at nice {Nice} ({Threads} threads), below its runner: viewers yield the CPU to measurements", nice, lowered);
    }
}
