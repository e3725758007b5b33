using System.Diagnostics;
using System.Net.Sockets;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// A first-time user's Table benchmark must work without an Azure account: when a run uses
/// <c>UseDevelopmentStorage=true</c> and nothing listens on its port, this starts Azurite (the emulator the
/// repository's package.json pins, installed by <c>npm ci</c>) in memory on 127.0.0.1, says so in the log,
/// and stops it with the process. Azurite someone else started is used as it is.
/// </summary>
public sealed class LocalEmulator(IHostEnvironment environment, ILogger<LocalEmulator> logger) : IAsyncDisposable
{
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);
    readonly SemaphoreSlim gate = new(1, 1);
    Process? process;

    public async Task EnsureRunningAsync(Uri endpoint, CancellationToken ct)
    {
        await gate.WaitAsync(ct);
        try
        {
            if (await ListensAsync(endpoint, ct)) return;
            // DevelopmentStorageProxyUri may name another machine: an emulator is only ever started on this one.
            if (!IsLoopback(endpoint))
                throw new TableUnavailableException($"Nothing listens on {endpoint.Authority} for the development storage account; Azurite is started automatically only on this machine (127.0.0.1 or localhost).");
            var executable = FindAzurite()
                ?? throw new TableUnavailableException($"Nothing listens on {endpoint.Authority} for the development storage account, and Azurite is not installed: run `npm ci` in the repository (package.json pins azurite), or start Azurite yourself.");
            process?.Dispose();
            process = Process.Start(new ProcessStartInfo(executable,
                ["--tableHost", endpoint.Host, "--tablePort", endpoint.Port.ToString(), "--inMemoryPersistence", "--skipApiVersionCheck", "--disableTelemetry", "--silent"])
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            }) ?? throw new TableUnavailableException("Could not start Azurite.");
            process.OutputDataReceived += (_, _) => { };
            process.ErrorDataReceived += (_, e) => { if (!string.IsNullOrWhiteSpace(e.Data)) logger.LogWarning("Azurite: {Line}", e.Data); };
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();

            var deadline = Stopwatch.GetTimestamp() + (long)(StartTimeout.TotalSeconds * Stopwatch.Frequency);
            while (!await ListensAsync(endpoint, ct))
            {
                if (process.HasExited) throw new TableUnavailableException($"Azurite exited with code {process.ExitCode} before listening on {endpoint.Authority}.");
                if (Stopwatch.GetTimestamp() > deadline) throw new TableUnavailableException($"Azurite did not listen on {endpoint.Authority} within {StartTimeout.TotalSeconds:N0} s.");
                await Task.Delay(100, ct);
            }
            logger.LogInformation("Started Azurite (the Table Storage emulator, in memory) on {Endpoint} for the development storage account; it stops with this process", endpoint.Authority);
        }
        finally
        {
            gate.Release();
        }
    }

    static bool IsLoopback(Uri endpoint) =>
        endpoint.IsLoopback || (System.Net.IPAddress.TryParse(endpoint.Host.Trim('[', ']'), out var address) && System.Net.IPAddress.IsLoopback(address));

    static async Task<bool> ListensAsync(Uri endpoint, CancellationToken ct)
    {
        using var client = new TcpClient();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(TimeSpan.FromSeconds(1));
        try
        {
            await client.ConnectAsync(endpoint.Host, endpoint.Port, timeout.Token);
            return true;
        }
        catch (Exception ex) when (ex is SocketException || (ex is OperationCanceledException && !ct.IsCancellationRequested))
        {
            return false;
        }
    }

    /// <summary><c>node_modules/.bin/azurite-table</c> in the content root or a folder above it (the repository's root when run from source).</summary>
    string? FindAzurite()
    {
        foreach (var start in new[] { environment.ContentRootPath, AppContext.BaseDirectory, Directory.GetCurrentDirectory() })
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
                if (Path.Combine(dir.FullName, "node_modules", ".bin", "azurite-table") is var candidate && File.Exists(candidate))
                    return candidate;
        return null;
    }

    public async ValueTask DisposeAsync()
    {
        if (process is { HasExited: false })
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
        }
        process?.Dispose();
        gate.Dispose();
    }
}
