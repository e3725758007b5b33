using System.Collections.Concurrent;
using System.Diagnostics;
using BenchDashboard.Core;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Claiming;
using BenchDashboard.Processing.Executing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Web.Runners;

/// <summary>
/// The dashboard's runner as a child process (<c>Runner:Process=child</c>, the default): the dashboard's own
/// executable started with <see cref="Hosting.Roles.RunnerChild"/>, with the dashboard's whole configuration,
/// environment and content root, restarted if it dies and stopped with the dashboard. Then the dashboard lowers
/// its own scheduling priority (<see cref="RunnerOptions.DashboardNice"/>).
/// <para>
/// Why a process: in one process, pages and measurements share one thread pool, and fifty viewers of a run
/// delayed its requests by up to 0.5 s (bench/README.md, "Pages and viewers"); in two, the operating system
/// schedules them apart, and at a lower priority the dashboard's work waits for the measurement's, not the
/// other way round.
/// </para>
/// </summary>
public sealed class ChildRunner(
    IConfiguration configuration, IHostEnvironment environment, IOptions<Core.Data.DatabaseOptions> database, RunnerPulse pulse,
    IOptions<RunnerOptions> options, ILogger<ChildRunner> logger) : BackgroundService
{
    readonly BlockingCollection<Action> launches = new();
    Process? child;
    string state = "not started yet";

    /// <summary>Whether the child is running, or why not; for the health check.</summary>
    public string? NotRunning => IsRunning(child) ? null : state;

    /// <summary>
    /// Asks a Process only while it still stands for a process: a disposed one answers every question with
    /// "No process is associated with this object" (which ended the dashboard's shutdown when a restart of a dead
    /// child failed and left the disposed one in <see cref="child"/>).
    /// </summary>
    static bool IsRunning(Process? process)
    {
        try { return process is { HasExited: false }; }
        catch (InvalidOperationException) { return false; }
    }

    public override async Task StartAsync(CancellationToken ct)
    {
        // Children are started from a thread that keeps the normal priority: a child started from a thread of
        // the reniced dashboard would inherit its lower priority.
        var launcher = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        new Thread(() =>
        {
            launcher.SetResult(SchedulingPriority.CurrentThreadId());
            foreach (var launch in launches.GetConsumingEnumerable()) launch();
        }) { IsBackground = true, Name = "runner launcher" }.Start();
        var launcherThread = await launcher.Task;
        await LaunchAsync();
        if (options.Value.DashboardNice > 0) SchedulingPriority.LowerThisProcess(options.Value.DashboardNice, logger, keep: launcherThread);
        await base.StartAsync(ct);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var backoff = TimeSpan.FromSeconds(1);
        while (!stoppingToken.IsCancellationRequested)
        {
            if (child is { } running)
            {
                try
                {
                    await ReadPulseAsync(running, stoppingToken);
                    await running.WaitForExitAsync(stoppingToken);
                }
                catch (OperationCanceledException) { break; }
                state = $"the runner process exited with code {running.ExitCode}; it is started again";
                logger.LogError("The runner process exited with code {Code}; starting it again in {Seconds} s", running.ExitCode, backoff.TotalSeconds);
                pulse.Mirror(null, new RunnerFailure(state, DateTimeOffset.UtcNow));
            }
            try { await Task.Delay(backoff, stoppingToken); } catch (OperationCanceledException) { break; }
            backoff = TimeSpan.FromTicks(Math.Min(backoff.Ticks * 2, TimeSpan.FromSeconds(30).Ticks));
            await LaunchAsync();
        }
    }

    /// <summary>The child's lines: its pulse goes to the health check, anything else (its log) to this process's output.</summary>
    async Task ReadPulseAsync(Process running, CancellationToken ct)
    {
        while (await running.StandardOutput.ReadLineAsync(ct) is { } line)
        {
            if (!PulseLine.TryMirror(line, pulse)) Console.Out.WriteLine(line);
        }
    }

    Task LaunchAsync()
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        try
        {
            launches.Add(Launch);
        }
        catch (InvalidOperationException)
        {
            return Task.CompletedTask; // disposed: nothing more is started
        }
        return done.Task;

        void Launch()
        {
            // Never a disposed child in the field: if this start fails there is no child, not a dead one's husk.
            Interlocked.Exchange(ref child, null)?.Dispose();
            if (Volatile.Read(ref disposed) == 1) { done.SetResult(); return; } // the dashboard is stopping: no new child
            try
            {
                var started = Process.Start(StartInfo()) ?? throw new InvalidOperationException("The runner process did not start.");
                started.ErrorDataReceived += (_, e) => { if (e.Data is not null) Console.Error.WriteLine(e.Data); };
                started.BeginErrorReadLine();
                child = started;
                state = "running";
                logger.LogInformation("Runner started as process {Pid}", started.Id);
                // Disposed while it started: Dispose found no child to end, so end this one here.
                if (Volatile.Read(ref disposed) == 1 && Interlocked.Exchange(ref child, null) is { } orphan)
                {
                    Kill(orphan);
                    orphan.Dispose();
                }
                done.SetResult();
            }
            catch (Exception ex)
            {
                state = $"the runner process could not be started: {ex.Message}";
                logger.LogError(ex, "The runner process could not be started");
                done.SetResult(); // the loop tries again
            }
        }
    }

    ProcessStartInfo StartInfo()
    {
        var host = Environment.ProcessPath ?? "dotnet";
        var entry = System.Reflection.Assembly.GetEntryAssembly()?.Location;
        // `dotnet BenchDashboard.Web.dll` runs the host with the assembly; a published apphost is the program itself.
        List<string> arguments = Path.GetFileNameWithoutExtension(host) == "dotnet" && entry is not null ? [entry] : [];
        arguments.AddRange([Hosting.Roles.RunnerChild, "--contentRoot", environment.ContentRootPath]);
        var start = new ProcessStartInfo(host, arguments)
        {
            RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        // The child sees what this process sees: every setting from every source, as environment variables.
        foreach (var (key, value) in configuration.AsEnumerable())
            if (value is not null && !key.Contains("__", StringComparison.Ordinal)) start.Environment[key.Replace(":", "__")] = value;
        start.Environment["DOTNET_ENVIRONMENT"] = environment.EnvironmentName;
        foreach (var (name, value) in ChildRuntimeSettings.For(options.Value, Environment.GetEnvironmentVariable)) start.Environment[name] = value;
        // The file this process resolved (on App Service, a default that depends on this host's environment).
        start.Environment["Database__Path"] = database.Value.FullPath(environment);
        return start;
    }

    public override async Task StopAsync(CancellationToken ct)
    {
        await base.StopAsync(ct);
        if (child is not { } running || !IsRunning(running)) return;
        running.StandardInput.Close(); // the child stops its runner when its input closes, ending runs as interrupted
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(ct);
        wait.CancelAfter(TimeSpan.FromSeconds(10));
        try
        {
            await running.WaitForExitAsync(wait.Token);
        }
        catch (OperationCanceledException)
        {
            Kill(running);
        }
    }

    /// <summary>Ends the child and whatever it started; it may have ended meanwhile, which is what was wanted.</summary>
    void Kill(Process running)
    {
        try { running.Kill(entireProcessTree: true); }
        catch (Exception ex) when (ex is InvalidOperationException or AggregateException or System.ComponentModel.Win32Exception)
        {
            logger.LogDebug(ex, "The runner process had already ended");
        }
    }

    // Called twice: the container disposes this singleton and the hosted service its factory returned.
    public override void Dispose()
    {
        if (Interlocked.Exchange(ref disposed, 1) == 1) return;
        base.Dispose(); // cancels the restart loop first (a host that failed to start disposes without stopping)
        if (Interlocked.Exchange(ref child, null) is { } last)
        {
            if (IsRunning(last)) Kill(last);
            last.Dispose();
        }
        launches.CompleteAdding();
    }

    int disposed;
}
