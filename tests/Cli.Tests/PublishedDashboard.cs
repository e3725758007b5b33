using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using BenchDashboard.TestSupport;

namespace BenchDashboard.Cli.Tests;

/// <summary>
/// The dashboard published once (as the deployment tests do), and one instance of it started for the
/// collection: Development, so its runs may measure its own /target endpoints on loopback, but with the key
/// required (Auth:Required=always), as on a server. The tests that need a dashboard of their own start one.
/// </summary>
public sealed class PublishedDashboard : IAsyncLifetime
{
    public const string Key = "cli-test-key";

    readonly TempDirectory dir = new();

    public string Folder => dir.File("site");

    /// <summary>Nothing listens here: a cache run with <c>"connection":"redis"</c> fails to connect.</summary>
    public int ClosedPort { get; } = FreePort();

    public DashboardProcess Shared { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        await PublishAsync(Directory.CreateDirectory(Folder).FullName);
        Shared = await StartAsync();
    }

    public Task<DashboardProcess> StartAsync() =>
        DashboardProcess.StartAsync(Folder, Directory.CreateDirectory(dir.File(Guid.NewGuid().ToString("n"))).FullName, new()
        {
            ["ASPNETCORE_ENVIRONMENT"] = "Development", ["Auth__Required"] = "always", ["Auth__ApiKey"] = Key,
            ["Demo__Seed"] = "false", ["Runner__PollIntervalMs"] = "100", ["ConnectionStrings__redis"] = $"127.0.0.1:{ClosedPort},connectTimeout=1000",
        });

    public async Task DisposeAsync()
    {
        if (Shared is not null) await Shared.DisposeAsync();
        dir.Dispose();
    }

    static async Task PublishAsync(string output)
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(Path.Combine(root, "BenchDashboard.sln"))) root = Path.GetDirectoryName(root) ?? throw new InvalidOperationException("No repository root.");
        var publish = Process.Start(new ProcessStartInfo("dotnet", ["publish", Path.Combine(root, "src", "Web"), "-c", "Release", "-o", output, "-nologo", "-v", "quiet"])
        {
            RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        })!;
        var stdout = publish.StandardOutput.ReadToEndAsync();
        var stderr = publish.StandardError.ReadToEndAsync();
        await publish.WaitForExitAsync();
        Assert.True(publish.ExitCode == 0, $"dotnet publish failed: {await stdout}{await stderr}");
    }

    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}

/// <summary>One published dashboard as a child process on a loopback port, with its own database; killed on dispose.</summary>
public sealed class DashboardProcess : IAsyncDisposable
{
    readonly Process process;
    readonly StringBuilder log = new();

    DashboardProcess(Process process, Uri url)
    {
        this.process = process;
        Url = url;
    }

    public Uri Url { get; }

    public static async Task<DashboardProcess> StartAsync(string folder, string dataDirectory, Dictionary<string, string?> environment)
    {
        var port = PublishedDashboard.FreePort();
        var start = new ProcessStartInfo("dotnet", [Path.Combine(folder, "BenchDashboard.Web.dll")])
        {
            WorkingDirectory = folder, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        foreach (var (name, value) in environment) start.Environment[name] = value;
        start.Environment["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}";
        start.Environment["Database__Path"] = Path.Combine(dataDirectory, "bench.db");
        start.Environment["HOME"] = dataDirectory;
        var dashboard = new DashboardProcess(Process.Start(start)!, new Uri($"http://127.0.0.1:{port}"));
        dashboard.process.OutputDataReceived += (_, e) => { lock (dashboard.log) dashboard.log.AppendLine(e.Data); };
        dashboard.process.ErrorDataReceived += (_, e) => { lock (dashboard.log) dashboard.log.AppendLine(e.Data); };
        dashboard.process.BeginOutputReadLine();
        dashboard.process.BeginErrorReadLine();
        await dashboard.UntilHealthyAsync();
        return dashboard;
    }

    async Task UntilHealthyAsync()
    {
        using var client = new HttpClient { BaseAddress = Url, Timeout = TimeSpan.FromSeconds(10) };
        var deadline = DateTime.UtcNow.AddSeconds(90);
        while (DateTime.UtcNow < deadline && !process.HasExited)
        {
            try
            {
                if ((await client.GetAsync("/healthz")).StatusCode == HttpStatusCode.OK) return;
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException)
            {
            }
            await Task.Delay(200);
        }
        lock (log) throw new InvalidOperationException("The dashboard did not become healthy:\n" + log);
    }

    public string Log { get { lock (log) return log.ToString(); } }

    public async ValueTask DisposeAsync()
    {
        if (!process.HasExited) process.Kill(entireProcessTree: true);
        await process.WaitForExitAsync();
        process.Dispose();
    }
}

[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class DashboardCollection : ICollectionFixture<PublishedDashboard>
{
    public const string Name = "published dashboard";
}
