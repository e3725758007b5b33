using System.Diagnostics;
using BenchDashboard.Core.Data;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Runner.Scheduling;
using BenchDashboard.TestSupport;
using BenchDashboard.Web.Runners;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Tests.Runners;

/// <summary>
/// Stopping the dashboard whatever its runner child is doing: it ended with an unhandled
/// "No process is associated with this object" from <see cref="ChildRunner.Dispose"/> when the child had died
/// and could not be started again, because the dead child's Process object was disposed before the new start
/// and stayed in place when that start failed. The child here is whatever this test process's entry assembly
/// does with the runner's arguments (it ends at once); the tests kill it if not, so what it does does not matter.
/// </summary>
public sealed class ChildRunnerTests
{
    [Fact]
    public async Task StoppingAfterTheDeadChildCouldNotBeStartedAgainNeitherThrowsNorLeavesAProcess()
    {
        using var dir = new TempDirectory();
        var database = new DatabaseOptions { Path = dir.File("bench.db") };
        var logs = new LogCapture();
        var runner = NewRunner(database, logs);
        await runner.StartAsync(CancellationToken.None);
        var first = await StartedChildAsync(logs);

        // The next start fails (its database folder cannot be made: a file is in the way), then the child dies.
        File.WriteAllText(dir.File("blocked"), "");
        database.Path = Path.Combine(dir.File("blocked"), "bench.db");
        KillIfRunning(first);
        await UntilAsync(() => logs.Messages(LogLevel.Error).Any(m => m.Contains("could not be started")), "the failed restart");

        Assert.NotNull(runner.NotRunning); // the health check reads it: a reason, not an exception
        await runner.StopAsync(CancellationToken.None);
        runner.Dispose();
        runner.Dispose(); // the container disposes it twice
        Assert.True(HasExited(first));
    }

    [Fact]
    public async Task DisposingWhileTheChildRunsOrJustDiedEndsItWithoutThrowing()
    {
        using var dir = new TempDirectory();
        var logs = new LogCapture();
        var runner = NewRunner(new DatabaseOptions { Path = dir.File("bench.db") }, logs);
        await runner.StartAsync(CancellationToken.None);
        var child = await StartedChildAsync(logs);

        // Disposed without being stopped (a host that failed to start), as its child dies.
        KillIfRunning(child);
        runner.Dispose();
        await UntilAsync(() => HasExited(child), "the child's end");

        // Never started at all.
        NewRunner(new DatabaseOptions { Path = dir.File("other.db") }, logs).Dispose();
    }

    static ChildRunner NewRunner(DatabaseOptions database, LogCapture logs)
    {
        var environment = new HostEnvironment { ContentRootPath = AppContext.BaseDirectory, EnvironmentName = "Development" };
        var loggers = LoggerFactory.Create(b => b.AddProvider(logs));
        return new ChildRunner(new ConfigurationBuilder().Build(), environment, Options.Create(database), new RunnerPulse(TimeProvider.System),
            Options.Create(new RunnerOptions { DashboardNice = 0 }), loggers.CreateLogger<ChildRunner>());
    }

    static async Task<int> StartedChildAsync(LogCapture logs)
    {
        string? line = null;
        await UntilAsync(() => (line = logs.Messages(LogLevel.Information).FirstOrDefault(m => m.StartsWith("Runner started as process "))) is not null, "the first start");
        return int.Parse(line!["Runner started as process ".Length..]);
    }

    static async Task UntilAsync(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!condition()) { Assert.True(DateTime.UtcNow < deadline, $"waited 30 s for {what}"); await Task.Delay(50); }
    }

    /// <summary>The child may have ended already: this test process's entry assembly does not know the runner's arguments.</summary>
    static void KillIfRunning(int pid)
    {
        try { using var p = Process.GetProcessById(pid); p.Kill(); }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException) { }
    }

    static bool HasExited(int pid)
    {
        try { using var p = Process.GetProcessById(pid); return p.HasExited; }
        catch (ArgumentException) { return true; }
    }

    sealed class HostEnvironment : IHostEnvironment
    {
        public string EnvironmentName { get; set; } = "";
        public string ApplicationName { get; set; } = "test";
        public string ContentRootPath { get; set; } = "";
        public Microsoft.Extensions.FileProviders.IFileProvider ContentRootFileProvider { get; set; } = new Microsoft.Extensions.FileProviders.NullFileProvider();
    }
}
