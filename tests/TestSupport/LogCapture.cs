using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.TestSupport;

/// <summary>Keeps every log message a host writes, so a test can count them (a failing loop must not flood the log).</summary>
public sealed class LogCapture : ILoggerProvider
{
    public ConcurrentQueue<(LogLevel Level, string Category, string Message)> Entries { get; } = new();

    public IEnumerable<string> Messages(LogLevel atLeast) => Entries.Where(e => e.Level >= atLeast).Select(e => e.Message);

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    sealed class Logger(LogCapture capture, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;
        // EF Core logs every command at Information: only its warnings are of interest here.
        public bool IsEnabled(LogLevel logLevel) =>
            logLevel >= (category.StartsWith("Microsoft.EntityFrameworkCore", StringComparison.Ordinal) ? LogLevel.Warning : LogLevel.Information);

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (IsEnabled(logLevel)) capture.Entries.Enqueue((logLevel, category, formatter(state, exception) + (exception is null ? "" : $" {exception.GetType().Name}: {exception.Message} {exception.StackTrace?.Split('\n').FirstOrDefault(l => l.Contains("BenchDashboard"))?.Trim()}")));
        }
    }
}
