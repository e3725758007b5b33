using System.Diagnostics;

namespace BenchDashboard.TestSupport;

/// <summary>
/// A real redis-server (Debian's package; scripts/test.sh installs it) on 127.0.0.1 and a free port, with
/// no persistence, owned by the test: started here and killed on dispose. Extra arguments set limits such
/// as <c>--maxmemory 2mb --maxmemory-policy noeviction</c> or <c>--requirepass x</c>.
/// </summary>
public sealed class RedisServer : IAsyncDisposable
{
    Process process;
    readonly string[] arguments;
    public int Port { get; }

    /// <summary>A StackExchange.Redis connection string for this server.</summary>
    public string ConnectionString => $"127.0.0.1:{Port}";

    RedisServer(Process process, int port, string[] arguments)
    {
        this.process = process;
        Port = port;
        this.arguments = arguments;
    }

    public static async Task<RedisServer> StartAsync(params string[] extraArguments)
    {
        var port = FreePort();
        string[] arguments = ["--port", port.ToString(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", .. extraArguments];
        var server = new RedisServer(await LaunchAsync(port, arguments), port, arguments);
        return server;
    }

    /// <summary>Kills the server and starts a new, empty one on the same port, as a crash and restart would.</summary>
    public async Task RestartAsync()
    {
        Kill();
        process.Dispose();
        process = await LaunchAsync(Port, arguments);
    }

    static Task<Process> LaunchAsync(int port, string[] arguments)
    {
        var executable = new[] { "/usr/bin/redis-server", "/usr/local/bin/redis-server" }.FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("redis-server is not installed: run scripts/test.sh, which installs Debian's redis-server package.");
        return ServerProcess.StartAsync(executable, arguments, port);
    }

    /// <summary>Stops the server (SIGSTOP): connections stay open and nothing answers, as with a hung host.</summary>
    public void Pause() => Process.Start("kill", ["-STOP", process.Id.ToString()])!.WaitForExit();

    /// <summary>Stops the server as an administrator would (SIGTERM: it closes its connections and its port), and waits for it to exit.</summary>
    public void Stop()
    {
        if (process.HasExited) return;
        Process.Start("kill", ["-TERM", process.Id.ToString()])!.WaitForExit();
        if (!process.WaitForExit(10_000)) throw new TimeoutException("redis-server did not stop within 10 s of SIGTERM.");
    }

    /// <summary>Kills the server at once (SIGKILL, which also ends a paused one), as a crash would.</summary>
    public void Kill()
    {
        if (!process.HasExited) process.Kill();
        process.WaitForExit(10_000);
    }

    static int FreePort() => ServerProcess.FreePort();

    public ValueTask DisposeAsync()
    {
        Kill();
        process.Dispose();
        return ValueTask.CompletedTask;
    }
}
