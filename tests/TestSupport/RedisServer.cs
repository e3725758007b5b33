using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace BenchDashboard.TestSupport;

/// <summary>
/// A real redis-server (Debian's package; scripts/test.sh installs it) on 127.0.0.1 and a free port, with
/// no persistence, owned by the test: started here and killed on dispose. Extra arguments set limits such
/// as <c>--maxmemory 2mb --maxmemory-policy noeviction</c> or <c>--requirepass x</c>.
/// </summary>
public sealed class RedisServer : IAsyncDisposable
{
    readonly Process process;
    public int Port { get; }

    /// <summary>A StackExchange.Redis connection string for this server.</summary>
    public string ConnectionString => $"127.0.0.1:{Port}";

    RedisServer(Process process, int port)
    {
        this.process = process;
        Port = port;
    }

    public static async Task<RedisServer> StartAsync(params string[] extraArguments)
    {
        var executable = new[] { "/usr/bin/redis-server", "/usr/local/bin/redis-server" }.FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("redis-server is not installed: run scripts/test.sh, which installs Debian's redis-server package.");
        var port = FreePort();
        var start = new ProcessStartInfo(executable,
            ["--port", port.ToString(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", .. extraArguments])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start redis-server.");
        var output = new StringBuilder();
        process.OutputDataReceived += (_, e) => { lock (output) output.AppendLine(e.Data); };
        process.ErrorDataReceived += (_, e) => { lock (output) output.AppendLine(e.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var server = new RedisServer(process, port);
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (DateTime.UtcNow < deadline && !process.HasExited)
        {
            if (await server.AcceptsConnectionsAsync()) return server;
            await Task.Delay(50);
        }
        process.Kill();
        lock (output) throw new InvalidOperationException($"redis-server did not start on port {port}: {output}");
    }

    async Task<bool> AcceptsConnectionsAsync()
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync(IPAddress.Loopback, Port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Kills the server at once (SIGKILL), as a crash would.</summary>
    public void Kill()
    {
        if (!process.HasExited) process.Kill();
        process.WaitForExit(10_000);
    }

    static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    public ValueTask DisposeAsync()
    {
        Kill();
        process.Dispose();
        return ValueTask.CompletedTask;
    }
}
