using System.Diagnostics;
using Npgsql;

namespace BenchDashboard.TestSupport;

/// <summary>
/// A throw-away PostgreSQL cluster (Debian's postgresql package; scripts/test.sh installs it) in a temp
/// directory, listening on 127.0.0.1 and a free port, owned by the test process: started here, stopped and
/// deleted on dispose. Sign-in over TCP takes a password (<see cref="Password"/>), so a wrong one is refused as
/// on a real server. <see cref="Shared"/> is one cluster per test assembly; each test takes a database of its
/// own (<see cref="CreateDatabaseAsync"/>).
/// </summary>
public sealed class PostgreSqlServer : IAsyncDisposable
{
    public const string Password = "bench-test";
    static readonly string[] BinDirectories = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"];
    static readonly Lazy<Task<PostgreSqlServer>> shared = new(async () =>
    {
        var server = await StartAsync();
        AppDomain.CurrentDomain.ProcessExit += (_, _) => server.DisposeAsync().AsTask().GetAwaiter().GetResult(); // stopped and its files deleted
        return server;
    });

    /// <summary>The test assembly's cluster, started on first use and stopped when the test process exits.</summary>
    public static Task<PostgreSqlServer> Shared => shared.Value;

    readonly string dataDirectory, bin;
    Process process;
    public int Port { get; }

    PostgreSqlServer(string dataDirectory, string bin, int port, Process process)
    {
        this.dataDirectory = dataDirectory;
        this.bin = bin;
        Port = port;
        this.process = process;
    }

    /// <summary>A connection string to <paramref name="database"/> on this server, as the dashboard would be given it.</summary>
    public string ConnectionString(string database = "postgres", string password = Password) =>
        new NpgsqlConnectionStringBuilder
        {
            Host = "127.0.0.1", Port = Port, Username = "postgres", Password = password, Database = database,
            // Many short-lived databases: idle pooled connections go soon, so the server's slots are not used up.
            ConnectionIdleLifetime = 2, ConnectionPruningInterval = 1,
        }.ToString();

    public static async Task<PostgreSqlServer> StartAsync()
    {
        var bin = BinDirectories.FirstOrDefault(d => File.Exists(Path.Combine(d, "initdb")))
            ?? throw new InvalidOperationException("PostgreSQL is not installed: run scripts/test.sh, which installs Debian's postgresql package.");
        var dir = Path.Combine(Path.GetTempPath(), "benchdashboard-pg-" + Guid.NewGuid().ToString("n"));
        Directory.CreateDirectory(dir);
        var passwordFile = Path.Combine(dir, "password");
        await File.WriteAllTextAsync(passwordFile, Password);
        var data = Path.Combine(dir, "data");
        // initdb refuses to run as root: as root, the cluster belongs to the postgres user.
        if (Environment.UserName == "root") await RunAsync("chown", ["-R", "postgres:postgres", dir]);
        await RunAsync(Path.Combine(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile", passwordFile, "--no-sync", "-E", "UTF8"]);
        var port = ServerProcess.FreePort();
        return new PostgreSqlServer(dir, bin, port, await LaunchAsync(bin, data, dir, port));
    }

    static Task<Process> LaunchAsync(string bin, string data, string socketDirectory, int port)
    {
        // Durability is not under test: no fsync, so a test's many small commits cost no disk flushes.
        string[] arguments = [Path.Combine(bin, "postgres"), "-D", data, "-p", port.ToString(), "-k", socketDirectory,
            "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"];
        return Environment.UserName == "root"
            ? ServerProcess.StartAsync("/usr/sbin/runuser", ["-u", "postgres", "--", .. arguments], port)
            : ServerProcess.StartAsync(arguments[0], arguments[1..], port);
    }

    /// <summary>A new, empty database; returns its connection string.</summary>
    public async Task<string> CreateDatabaseAsync()
    {
        var name = "t_" + Guid.NewGuid().ToString("n");
        await using var connection = new NpgsqlConnection(ConnectionString());
        await connection.OpenAsync();
        await using var create = new NpgsqlCommand($"CREATE DATABASE {name}", connection);
        await create.ExecuteNonQueryAsync();
        return ConnectionString(name);
    }

    /// <summary>Drops a database made by <see cref="CreateDatabaseAsync"/>, ending the connections still on it.</summary>
    public async Task DropDatabaseAsync(string connectionString)
    {
        var name = new NpgsqlConnectionStringBuilder(connectionString).Database;
        NpgsqlConnection.ClearAllPools();
        await using var connection = new NpgsqlConnection(ConnectionString());
        await connection.OpenAsync();
        await using var drop = new NpgsqlCommand($"DROP DATABASE IF EXISTS {name} WITH (FORCE)", connection);
        await drop.ExecuteNonQueryAsync();
    }

    /// <summary>Stops the server as an administrator would (a fast shutdown: connections are ended) and waits for it to exit.</summary>
    public void Stop()
    {
        if (process.HasExited) return;
        // The server runs as postgres under runuser: signal the postmaster itself, whose pid is in its data directory.
        var pid = File.ReadLines(Path.Combine(dataDirectory, "data", "postmaster.pid")).First();
        Process.Start("kill", ["-INT", pid])!.WaitForExit();
        if (!process.WaitForExit(20_000)) throw new TimeoutException("PostgreSQL did not stop within 20 s of SIGINT.");
    }

    /// <summary>Starts the stopped server again on the same port with the same data, as after a restart.</summary>
    public async Task StartAgainAsync()
    {
        process.Dispose();
        process = await LaunchAsync(bin, Path.Combine(dataDirectory, "data"), dataDirectory, Port);
        await UntilAcceptingQueriesAsync();
    }

    /// <summary>
    /// The port opens before recovery ends, and until then every login fails with 57P03 ("the database system is
    /// starting up"): a test that asks the moment it is back would fail on the server's start, not on its subject.
    /// </summary>
    async Task UntilAcceptingQueriesAsync()
    {
        for (var deadline = DateTime.UtcNow.AddSeconds(60); ; await Task.Delay(100))
        {
            try
            {
                await using var connection = new NpgsqlConnection(ConnectionString());
                await connection.OpenAsync();
                return;
            }
            catch (PostgresException ex) when (ex.SqlState == PostgresErrorCodes.CannotConnectNow && DateTime.UtcNow < deadline) { }
        }
    }

    void Kill()
    {
        try { Stop(); } catch (Exception) { if (!process.HasExited) process.Kill(entireProcessTree: true); }
    }

    static async Task RunAsync(string executable, string[] arguments)
    {
        var start = new ProcessStartInfo(Environment.UserName == "root" && executable.EndsWith("initdb") ? "/usr/sbin/runuser" : executable)
        {
            RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
        };
        if (start.FileName == "/usr/sbin/runuser") foreach (var a in (string[])["-u", "postgres", "--", executable]) start.ArgumentList.Add(a);
        foreach (var a in arguments) start.ArgumentList.Add(a);
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0) throw new InvalidOperationException($"{Path.GetFileName(executable)} failed ({process.ExitCode}): {error}{await output}");
    }

    public ValueTask DisposeAsync()
    {
        Kill();
        process.Dispose();
        try { Directory.Delete(dataDirectory, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
        return ValueTask.CompletedTask;
    }
}
