using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace BenchDashboard.TestSupport;

/// <summary>A server program run by a test as a child process on a loopback port: started, awaited until it accepts connections.</summary>
static class ServerProcess
{
    public static async Task<Process> StartAsync(string executable, IEnumerable<string> arguments, int port)
    {
        var start = new ProcessStartInfo(executable, arguments)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {Path.GetFileName(executable)}.");
        var output = new StringBuilder();
        process.OutputDataReceived += (_, e) => { lock (output) output.AppendLine(e.Data); };
        process.ErrorDataReceived += (_, e) => { lock (output) output.AppendLine(e.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (DateTime.UtcNow < deadline && !process.HasExited)
        {
            if (await AcceptsConnectionsAsync(port)) return process;
            await Task.Delay(50);
        }
        if (!process.HasExited) process.Kill(entireProcessTree: true);
        lock (output) throw new InvalidOperationException($"{Path.GetFileName(executable)} did not start on port {port}: {output}");
    }

    public static async Task<bool> AcceptsConnectionsAsync(int port)
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync(IPAddress.Loopback, port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>A loopback port nothing listens on (bound, then released).</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
