using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using BenchDashboard.TestSupport;

using BenchDashboard.Web.Tests.Security;

namespace BenchDashboard.Web.Tests.Deployment;

/// <summary>
/// The published output started the way App Service for Linux starts it: `dotnet BenchDashboard.Web.dll` in
/// the content directory, with PORT, HOME and WEBSITE_* variables, Production settings, and nothing to be
/// written under the content root (run from package makes it read-only; the tests run as root, so instead of
/// relying on permissions the test checks that no file there was created or changed).
/// </summary>
[Collection(PublishedApps.Collection)]
public sealed class PublishedAppTests(PublishedOutput published)
{
    const string Key = "deploy-test-key";

    [Fact]
    public async Task ThePublishedAppRunsUnderAppServiceLikeSettings()
    {
        using var dir = new TempDirectory();
        var content = published.Folder;
        var before = Snapshot(content);
        var port = FreePort();
        var tmp = Directory.CreateDirectory(dir.File("local-tmp")).FullName;
        await using (var app = PublishedApp.Start(content, content, new()
        {
            ["PORT"] = port.ToString(), ["ASPNETCORE_URLS"] = null, ["ASPNETCORE_ENVIRONMENT"] = "Production",
            ["HOME"] = Directory.CreateDirectory(dir.File("home")).FullName, ["TMPDIR"] = tmp,
            ["WEBSITE_SITE_NAME"] = "benchtest", ["WEBSITE_INSTANCE_ID"] = "0123456789abcdef", ["WEBSITE_HOSTNAME"] = "benchtest.azurewebsites.net",
            ["WEBSITE_SKU"] = "PremiumV3", ["REGION_NAME"] = "Japan East", ["WEBSITE_DYNAMIC_CACHE"] = "0", ["WEBSITE_RUN_FROM_PACKAGE"] = "1",
            ["BENCHDASHBOARD_SLOT"] = "staging", ["Auth__ApiKey"] = Key, ["Demo__Seed"] = "false",
            ["Runner__PollIntervalMs"] = "100",
            // As deploy/main.bicep sets it up with keyRingCertificateThumbprint: the key ring encrypted (without it /healthz is Degraded).
            ["KeyRing__CertificatePath"] = KeyRingTests.Pfx(dir, "site-certificate"), ["KeyRing__CertificatePassword"] = "site-certificate",
        }))
        {
            using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(10) };
            var health = await app.UntilHealthyAsync(client);
            Assert.Equal("Healthy", health.GetProperty("status").GetString());

            // It listens on every interface (PORT), so starting a run needs the key.
            var run = new { kind = "cache", requests = 200, keyCount = 20 };
            Assert.Equal(HttpStatusCode.Unauthorized, (await client.PostAsJsonAsync("/api/runs", run)).StatusCode);
            var create = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(run) };
            create.Headers.Add("X-Api-Key", Key);
            var created = await client.SendAsync(create);
            Assert.Equal(HttpStatusCode.Created, created.StatusCode);
            var id = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("id").GetInt64();
            var result = await DashboardFactory.WaitForEndAsync(client, id);
            Assert.Equal("completed", result.GetProperty("status").GetString());
            var variables = result.GetProperty("environment").GetProperty("platformVariables");
            Assert.Equal("0", variables.GetProperty("WEBSITE_DYNAMIC_CACHE").GetString());
            Assert.Equal("staging", variables.GetProperty("BENCHDASHBOARD_SLOT").GetString());

            // Loopback is refused outside Development: an HTTP run at itself must use its public name.
            var loopback = new HttpRequestMessage(HttpMethod.Post, "/api/runs") { Content = JsonContent.Create(new { kind = "http", url = $"http://127.0.0.1:{port}/target/dynamic", requests = 5 }) };
            loopback.Headers.Add("X-Api-Key", Key);
            Assert.Contains("loopback", await (await client.SendAsync(loopback)).Content.ReadAsStringAsync());

            // SQLite on the instance's temp disk: the pages say that the history goes with the next restart.
            Assert.Contains("id=\"history-on-temp-disk\"", await client.GetStringAsync("/"));
        }

        Assert.True(File.Exists(Path.Combine(tmp, "benchdashboard", "benchdashboard.db")), "the results database is on local disk (TMPDIR)");
        Assert.Equal(before, Snapshot(content)); // nothing written under the content root
    }

    [Fact]
    public async Task ThePublishedAppFindsItsOwnFilesFromAnyWorkingDirectory()
    {
        // Started from elsewhere with no --contentRoot: it used to lose appsettings.json and wwwroot (styles 404,
        // /target/files 500) and log every request at Information.
        using var dir = new TempDirectory();
        var port = FreePort();
        var elsewhere = Directory.CreateDirectory(dir.File("elsewhere")).FullName;
        string log;
        await using (var app = PublishedApp.Start(published.Folder, elsewhere, new()
        {
            ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}", ["ASPNETCORE_ENVIRONMENT"] = "Production", ["Database__Path"] = dir.File("bench.db"),
            ["Demo__Seed"] = "false", ["Auth__ApiKey"] = Key, ["HOME"] = dir.Path,
        }))
        {
            using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(10) };
            await app.UntilHealthyAsync(client);
            Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/css/site.css")).StatusCode);
            foreach (var lib in new[] { "/lib/chart.js/chart.umd.min.js", "/lib/chartjs-plugin-zoom/chartjs-plugin-zoom.min.js", "/lib/hammerjs/hammer.min.js" })
                Assert.Equal(HttpStatusCode.OK, (await client.GetAsync(lib)).StatusCode);
            for (var i = 0; i < 20; i++) Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/target/files?count=4")).StatusCode);
            Assert.Contains("<link rel=\"stylesheet\"", await client.GetStringAsync("/"));
            log = await app.StopAsync();
        }
        Assert.DoesNotContain("Request starting", log); // appsettings.json's levels: ASP.NET Core at Warning
        Assert.Contains($"Content root path: {published.Folder.TrimEnd('/')}", log);
    }

    [Fact]
    public async Task WithoutAppsettingsJsonTheLogLevelsStillKeepOneLinePerRequestOut()
    {
        // A content root with no appsettings.json at all (given explicitly, so the app does not look for its own):
        // the built-in defaults must still keep ASP.NET Core at Warning, or every /target request is a log line.
        using var dir = new TempDirectory();
        var port = FreePort();
        var empty = Directory.CreateDirectory(dir.File("empty")).FullName;
        string log;
        await using (var app = PublishedApp.Start(published.Folder, empty, new()
        {
            ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}", ["ASPNETCORE_ENVIRONMENT"] = "Production", ["Database__Path"] = dir.File("bench.db"),
            ["Demo__Seed"] = "false", ["Auth__ApiKey"] = Key, ["HOME"] = dir.Path,
        }, "--contentRoot", empty))
        {
            using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(10) };
            await app.UntilHealthyAsync(client);
            for (var i = 0; i < 20; i++) Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/target/bytes?size=16")).StatusCode);
            log = await app.StopAsync();
        }
        Assert.Contains($"Content root path: {empty.TrimEnd('/')}", log);
        Assert.DoesNotContain("Request starting", log);
        Assert.DoesNotContain("Request finished", log);
    }

    [Theory]
    [InlineData("not a database")]
    [InlineData("a bad header")]
    [InlineData("cut short")]
    [InlineData("a damaged schema page")]
    public async Task ADamagedDatabaseFileStopsTheStartWithOnePlainMessageAndIsLeftAsItWas(string damage)
    {
        using var dir = new TempDirectory();
        var path = dir.File("bench.db");
        Damage(path, damage);
        var before = File.ReadAllBytes(path);

        await using var app = PublishedApp.Start(published.Folder, published.Folder, new()
        {
            ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{FreePort()}", ["ASPNETCORE_ENVIRONMENT"] = "Production", ["Database__Path"] = path,
            ["Demo__Seed"] = "false", ["Auth__ApiKey"] = Key, ["HOME"] = dir.Path,
        });

        Assert.Equal(1, await app.ExitCodeAsync(seconds: 60));
        var log = app.Log;
        Assert.Contains($"The results database {path} cannot be used: the database file is damaged or not a database", log);
        Assert.Contains("Restore it from a backup, or move it aside", log);
        Assert.DoesNotContain("   at ", log); // no stack trace
        Assert.DoesNotContain("Unhandled exception", log);
        Assert.Equal(before, File.ReadAllBytes(path));
    }

    /// <summary>A results file as a failing disk or a careless copy leaves it.</summary>
    static void Damage(string path, string damage)
    {
        if (damage == "not a database")
        {
            File.WriteAllText(path, "these are somebody's notes, not a database\n");
            return;
        }
        // A real database first: a table with enough rows for a dozen pages.
        using (var connection = new Microsoft.Data.Sqlite.SqliteConnection($"Data Source={path};Pooling=False"))
        {
            connection.Open();
            using var command = connection.CreateCommand();
            command.CommandText = "CREATE TABLE Notes (Id INTEGER PRIMARY KEY, Text TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO Notes SELECT i, printf('%0100d', i) FROM n;";
            command.ExecuteNonQuery();
        }
        var bytes = File.ReadAllBytes(path);
        switch (damage)
        {
            case "a bad header":
                Array.Fill(bytes, (byte)0x5A, 0, 16); // "SQLite format 3\0" overwritten
                break;
            case "cut short":
                bytes = bytes[..(bytes.Length / 3)];
                break;
            default: // the first page's schema overwritten past its 100-byte header
                Array.Fill(bytes, (byte)0xFF, 100, 4000);
                break;
        }
        File.WriteAllBytes(path, bytes);
    }

    [Fact]
    public async Task TheRunnerIsAChildProcessAtNormalPriorityThatLivesAndDiesWithTheDashboard()
    {
        using var dir = new TempDirectory();
        var port = FreePort();
        await using var app = PublishedApp.Start(published.Folder, published.Folder, new()
        {
            ["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}", ["ASPNETCORE_ENVIRONMENT"] = "Production", ["Database__Path"] = dir.File("bench.db"),
            ["Demo__Seed"] = "false", ["Auth__ApiKey"] = Key, ["HOME"] = dir.Path, ["Runner__PollIntervalMs"] = "100",
        });
        using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}"), Timeout = TimeSpan.FromSeconds(10) };
        await app.UntilHealthyAsync(client);

        var child = await app.UntilLoggedAsync(@"Runner started as process (\d+)");
        Assert.Equal(10, Nice(app.Pid)); // the dashboard yields the CPU to measurements
        Assert.Equal(0, Nice(child));

        // A runner that dies is started again, and the health check says so meanwhile.
        Process.GetProcessById(child).Kill();
        var again = await app.UntilLoggedAsync(@"Runner started as process (\d+)", after: child);
        Assert.NotEqual(child, again);
        Assert.Equal(0, Nice(again)); // started from the launcher thread, not from a lowered one
        await app.UntilHealthyAsync(client);

        // A dashboard that dies takes its runner with it: nothing goes on measuring unwatched.
        Process.GetProcessById(app.Pid).Kill();
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (!HasExited(again)) { Assert.True(DateTime.UtcNow < deadline, "the runner outlived its dashboard"); await Task.Delay(100); }
    }

    /// <summary>A process's nice value (field 19 of /proc/PID/stat).</summary>
    static int Nice(int pid) => int.Parse(File.ReadAllText($"/proc/{pid}/stat").Split(')')[1].Split(' ', StringSplitOptions.RemoveEmptyEntries)[16]);

    static bool HasExited(int pid)
    {
        try { return Process.GetProcessById(pid).HasExited; }
        catch (ArgumentException) { return true; }
    }

    internal static async Task PublishAsync(string output)
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(Path.Combine(root, "BenchDashboard.sln"))) root = Path.GetDirectoryName(root) ?? throw new InvalidOperationException("No repository root.");
        var publish = Process.Start(new ProcessStartInfo("dotnet", ["publish", Path.Combine(root, "src", "Web"), "-c", "Release", "-o", output, "-nologo", "-v", "quiet"])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        })!;
        var stdout = publish.StandardOutput.ReadToEndAsync();
        var stderr = publish.StandardError.ReadToEndAsync();
        await publish.WaitForExitAsync();
        Assert.True(publish.ExitCode == 0, $"dotnet publish failed: {await stdout}{await stderr}");
    }

    /// <summary>Every file under the content root with its size and last write time.</summary>
    static string Snapshot(string root) => string.Join("\n", Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories)
        .Order(StringComparer.Ordinal).Select(f => $"{Path.GetRelativePath(root, f)} {new FileInfo(f).Length} {File.GetLastWriteTimeUtc(f):O}"));

    internal static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}

/// <summary>
/// The tests that start the published dashboard share one publish (it takes a while). They run alone, after the
/// others: each starts several processes (the agents' tests four), which disturbed the timing of tests beside them.
/// </summary>
[CollectionDefinition(Collection, DisableParallelization = true)]
public sealed class PublishedApps : ICollectionFixture<PublishedOutput>
{
    public const string Collection = "published dashboard";
}

/// <summary>The dashboard published once for the tests of the <see cref="PublishedApps"/> collection.</summary>
public sealed class PublishedOutput : IAsyncLifetime
{
    readonly TempDirectory dir = new();

    public string Folder => dir.File("site");

    public Task InitializeAsync() => PublishedAppTests.PublishAsync(Directory.CreateDirectory(Folder).FullName);

    public Task DisposeAsync()
    {
        dir.Dispose();
        return Task.CompletedTask;
    }
}

/// <summary>The published dashboard as a child process, with everything it logs; killed on dispose.</summary>
sealed class PublishedApp : IAsyncDisposable
{
    readonly Process process;
    readonly StringBuilder log = new();

    PublishedApp(Process process) => this.process = process;

    public static PublishedApp Start(string folder, string workingDirectory, Dictionary<string, string?> environment, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet", [Path.Combine(folder, "BenchDashboard.Web.dll"), .. arguments])
        {
            WorkingDirectory = workingDirectory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        foreach (var (name, value) in environment) start.Environment[name] = value;
        var app = new PublishedApp(Process.Start(start)!);
        app.process.OutputDataReceived += (_, e) => { lock (app.log) app.log.AppendLine(e.Data); };
        app.process.ErrorDataReceived += (_, e) => { lock (app.log) app.log.AppendLine(e.Data); };
        app.process.BeginOutputReadLine();
        app.process.BeginErrorReadLine();
        return app;
    }

    public async Task<JsonElement> UntilHealthyAsync(HttpClient client)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (DateTime.UtcNow < deadline && !process.HasExited)
        {
            try
            {
                var response = await client.GetAsync("/healthz");
                if (response.StatusCode == HttpStatusCode.OK) return await response.Content.ReadFromJsonAsync<JsonElement>();
            }
            catch (HttpRequestException)
            {
            }
            await Task.Delay(200);
        }
        lock (log) throw new InvalidOperationException("The published app did not become healthy:\n" + log);
    }

    public int Pid => process.Id;

    /// <summary>Its exit code once it has ended by itself, within <paramref name="seconds"/>.</summary>
    public async Task<int> ExitCodeAsync(int seconds)
    {
        using var within = new CancellationTokenSource(TimeSpan.FromSeconds(seconds));
        try
        {
            await process.WaitForExitAsync(within.Token);
        }
        catch (OperationCanceledException)
        {
            lock (log) throw new TimeoutException($"The published app is still running after {seconds} s:\n{log}");
        }
        return process.ExitCode;
    }

    /// <summary>Everything it has logged so far.</summary>
    public string Log { get { lock (log) return log.ToString(); } }

    /// <summary>Waits for a log line matching <paramref name="pattern"/> whose first group is a number other than <paramref name="after"/>, and returns that number.</summary>
    public async Task<int> UntilLoggedAsync(string pattern, int? after = null)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (DateTime.UtcNow < deadline)
        {
            string text;
            lock (log) text = log.ToString();
            var found = System.Text.RegularExpressions.Regex.Matches(text, pattern).Select(m => int.Parse(m.Groups[1].Value)).Where(n => n != after).ToList();
            if (found.Count > 0) return found[^1];
            await Task.Delay(100);
        }
        lock (log) throw new TimeoutException($"Nothing logged like '{pattern}':\n{log}");
    }

    /// <summary>Kills it and returns everything it logged.</summary>
    public async Task<string> StopAsync()
    {
        if (!process.HasExited) process.Kill(entireProcessTree: true);
        await process.WaitForExitAsync();
        lock (log) return log.ToString();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        process.Dispose();
    }
}
