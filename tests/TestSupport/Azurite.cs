using System.Diagnostics;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

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
    readonly TempDirectory? certificateFiles;
    public int Port { get; }

    /// <summary>The self-signed certificate Azurite serves HTTPS with; null over HTTP.</summary>
    public X509Certificate2? Certificate { get; }

    Azurite(Process process, int port, X509Certificate2? certificate = null, TempDirectory? certificateFiles = null)
    {
        this.process = process;
        Port = port;
        Certificate = certificate;
        this.certificateFiles = certificateFiles;
    }

    /// <summary>Path-style, as Azurite wants: http(s)://127.0.0.1:PORT/devstoreaccount1.</summary>
    public Uri Endpoint => new($"{(Certificate is null ? "http" : "https")}://127.0.0.1:{Port}/{AccountName}");

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

    /// <summary>
    /// Azurite over HTTPS with a certificate made here for 127.0.0.1, checking bearer tokens as in its
    /// <c>--oauth basic</c> mode (issuer, audience and lifetime; no signature).
    /// </summary>
    public static async Task<Azurite> StartWithOAuthAsync()
    {
        var port = FreePort();
        var files = new TempDirectory();
        using var certificate = LoopbackCertificate.Create();
        await File.WriteAllTextAsync(files.File("cert.pem"), certificate.ExportCertificatePem());
        using (var key = certificate.GetRSAPrivateKey()!) await File.WriteAllTextAsync(files.File("key.pem"), key.ExportPkcs8PrivateKeyPem());
        var process = await ServerProcess.StartAsync(Executable(),
            ["--tableHost", "127.0.0.1", "--tablePort", port.ToString(), "--inMemoryPersistence", "--skipApiVersionCheck", "--disableTelemetry", "--silent",
             "--cert", files.File("cert.pem"), "--key", files.File("key.pem"), "--oauth", "basic"], port);
        return new Azurite(process, port, X509CertificateLoader.LoadCertificate(certificate.RawData), files);
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
        certificateFiles?.Dispose();
    }
}
