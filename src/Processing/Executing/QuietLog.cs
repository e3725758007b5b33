using System.Diagnostics;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Processing.Executing;

/// <summary>
/// Logs a failure that repeats (a full disk, a locked database) at most once per interval, saying how often
/// it happened in between: a loop that fails every pass must not write hundreds of megabytes of log.
/// </summary>
public sealed class QuietLog(ILogger logger, TimeSpan interval)
{
    readonly Lock gate = new();
    long lastLogged;
    int suppressed;

    public void Warning(Exception? ex, string message) => Write(LogLevel.Warning, ex, message);
    public void Error(Exception? ex, string message) => Write(LogLevel.Error, ex, message);

    void Write(LogLevel level, Exception? ex, string message)
    {
        int repeats;
        lock (gate)
        {
            if (lastLogged != 0 && Stopwatch.GetElapsedTime(lastLogged) < interval)
            {
                suppressed++;
                return;
            }
            lastLogged = Stopwatch.GetTimestamp();
            repeats = suppressed;
            suppressed = 0;
        }
        logger.Log(level, ex, "{Message}{Repeats}", message, repeats > 0 ? $" (and {repeats} more times since the last report)" : "");
    }
}
