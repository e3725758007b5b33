using System.Diagnostics;

namespace BenchDashboard.TestSupport;

/// <summary>
/// A real Azurite Table service (azurite-table from the repository's node_modules, pinned in package.json;
/// scripts/test.sh runs npm ci) on 127.0.0.1 and a free port, in memory, owned by the test: started here and
/// killed on dispose.
/// </summary>
public sealed class Azurite : IAsyncDisposable
{
    /// <summary>The development account's documented key.</summary>
    public const string AccountName = "devstoreaccount1";
    public const string AccountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    readonly Process process;
    public int Port { get; }

    Azurite(Process process, int port)
    {
        this.process = process;
        Port = port;
    }

    /// <summary>Path-style, as Azurite wants: http://127.0.0.1:PORT/devstoreaccount1.</summary>
    public Uri Endpoint => new($"http://127.0.0.1:{Port}/{AccountName}");

    public string ConnectionString => ConnectionStringFor(Port);

    /// <summary>A shared-key connection string for the development account at any port (a relay's, say).</summary>
    public static string ConnectionStringFor(int port, string key = AccountKey) =>
        $"DefaultEndpointsProtocol=http;AccountName={AccountName};AccountKey={key};TableEndpoint=http://127.0.0.1:{port}/{AccountName};";

    public static async Task<Azurite> StartAsync()
    {
        var port = FreePort();
        var process = await ServerProcess.StartAsync(Executable(),
            ["--tableHost", "127.0.0.1", "--tablePort", port.ToString(), "--inMemoryPersistence", "--skipApiVersionCheck", "--disableTelemetry", "--silent"], port);
        return new Azurite(process, port);
    }

    /// <summary>node_modules/.bin/azurite-table in the repository that holds this test build.</summary>
    static string Executable()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (Path.Combine(dir.FullName, "node_modules", ".bin", "azurite-table") is var candidate && File.Exists(candidate))
                return candidate;
        throw new InvalidOperationException("azurite-table is not installed: run scripts/test.sh (or npm ci at the repository root), which installs the azurite version package.json pins.");
    }

    public static int FreePort() => ServerProcess.FreePort();

    public async ValueTask DisposeAsync()
    {
        if (!process.HasExited) process.Kill(entireProcessTree: true);
        await process.WaitForExitAsync();
        process.Dispose();
    }
}
