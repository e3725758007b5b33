using System.Net.Sockets;
using BenchDashboard.Core.Kinds.Tables;
using BenchDashboard.Runner.Tables;
using BenchDashboard.TestSupport;
using Microsoft.Extensions.Hosting.Internal;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Runner.Tests.Tables;

/// <summary>
/// The first-time user's Table demo: with the development storage account and nothing listening, the runner
/// starts the repository's pinned Azurite itself, says so in the log, and stops it with the process.
/// </summary>
public sealed class LocalEmulatorTests
{
    static (LocalEmulator Emulator, LogCapture Logs) Create()
    {
        var logs = new LogCapture();
        var factory = LoggerFactory.Create(b => b.AddProvider(logs));
        var environment = new HostingEnvironment { ContentRootPath = AppContext.BaseDirectory }; // node_modules is found above it
        return (new LocalEmulator(environment, factory.CreateLogger<LocalEmulator>()), logs);
    }

    [Fact]
    public async Task NothingListeningStartsAzuriteThatTakesInsertsAndStopsWithTheRunner()
    {
        var port = Azurite.FreePort();
        var endpoint = new Uri($"http://127.0.0.1:{port}/{Azurite.AccountName}");
        var (emulator, logs) = Create();
        await using (emulator)
        {
            await emulator.EnsureRunningAsync(endpoint, default);
            await emulator.EnsureRunningAsync(endpoint, default); // already listening: nothing more is started

            Assert.Single(logs.Messages(LogLevel.Information), m => m.StartsWith($"Started Azurite (the Table Storage emulator, in memory) on 127.0.0.1:{port}", StringComparison.Ordinal));
            // It is a real Table service for the development account: an entity lands and is counted.
            using var connection = TableRuns.Connect(Azurite.ConnectionStringFor(port), "autostarted");
            await connection.Client.CreateTableIfNotExistsAsync(default);
            Assert.True((await connection.Client.InsertAsync(new BenchEntity("p", "r", new string('x', 16)), default)).Succeeded);
            Assert.Equal(1, await connection.Client.CountAsync("p", default));
        }

        using var probe = new TcpClient();
        await Assert.ThrowsAnyAsync<SocketException>(() => probe.ConnectAsync("127.0.0.1", port)); // stopped with it
    }

    [Fact]
    public async Task AnEmulatorOnAnotherMachineIsNeverStartedHere()
    {
        var (emulator, logs) = Create();
        await using (emulator)
        {
            // DevelopmentStorageProxyUri can point elsewhere; 192.0.2.1 is a documentation address nothing answers on.
            var refused = await Assert.ThrowsAsync<TableUnavailableException>(() => emulator.EnsureRunningAsync(new Uri("http://192.0.2.1:10002/devstoreaccount1"), default));
            Assert.Contains("only on this machine", refused.Message);
        }
        Assert.Empty(logs.Messages(LogLevel.Information));
    }
}
