using StackExchange.Redis;

namespace BenchDashboard.Runner.Cache;

/// <summary>
/// A Redis-protocol server through StackExchange.Redis: one multiplexed connection shared by all workers,
/// as the library intends. The connection string may carry a password and TLS settings (Azure Cache for
/// Redis: <c>host:6380,password=…,ssl=True</c>); it is never logged, and error messages are redacted.
/// A lost connection is the library's to restore (it reconnects on its own heartbeat); meanwhile every
/// operation fails at once (<see cref="BacklogPolicy.FailFast"/>) instead of waiting in its backlog.
/// </summary>
public sealed class RedisCacheClient : ICacheClient
{
    readonly ConnectionMultiplexer connection;
    readonly IDatabase database;
    readonly string? password;

    RedisCacheClient(ConnectionMultiplexer connection, string? password)
    {
        this.connection = connection;
        this.password = password;
        database = connection.GetDatabase();
        Endpoint = string.Join(", ", connection.GetEndPoints().Select(e => e.ToString()));
    }

    /// <summary>
    /// The RESP version each server was spoken to with: "RESP3", or per endpoint when they differ. Read from the
    /// connected servers, not the configuration: a server older than Redis 6 refuses HELLO and gets RESP2.
    /// </summary>
    public string Protocol
    {
        get
        {
            var spoken = connection.GetEndPoints().Select(e => (Endpoint: e, Protocol: connection.GetServer(e).Protocol)).ToList();
            static string Name(RedisProtocol? p) => p switch { RedisProtocol.Resp2 => "RESP2", RedisProtocol.Resp3 => "RESP3", null => "unknown", _ => p.ToString()! };
            return spoken.Select(s => s.Protocol).Distinct().Count() == 1
                ? Name(spoken[0].Protocol)
                : string.Join(", ", spoken.Select(s => $"{s.Endpoint}={Name(s.Protocol)}"));
        }
    }

    /// <summary>Connects or throws <see cref="CacheUnavailableException"/> with a message safe to show.</summary>
    public static async Task<RedisCacheClient> ConnectAsync(string connectionName, string connectionString, TimeSpan timeout, CancellationToken ct)
    {
        ConfigurationOptions options;
        try
        {
            options = ConfigurationOptions.Parse(connectionString);
        }
        catch (Exception ex) when (ex is ArgumentException or FormatException)
        {
            // The parser's message can quote the string, and with it a password.
            throw new CacheUnavailableException($"The connection string '{connectionName}' is not a valid StackExchange.Redis configuration.");
        }
        // A run that cannot reach its server must fail at once with a reason, not retry in the background.
        options.AbortOnConnectFail = true;
        options.ConnectTimeout = (int)timeout.TotalMilliseconds;
        options.SyncTimeout = (int)timeout.TotalMilliseconds;
        options.AsyncTimeout = (int)timeout.TotalMilliseconds; // every operation here is async; its default would follow SyncTimeout
        // The default backlog holds commands while disconnected: a GET with the server down waited out the
        // timeout and failed as a lost connection. Failing at once says what happened: nothing was there to ask.
        options.BacklogPolicy = BacklogPolicy.FailFast;
        options.ClientName = "BenchDashboard";
        try
        {
            var connecting = ConnectionMultiplexer.ConnectAsync(options);
            try
            {
                return new RedisCacheClient(await connecting.WaitAsync(ct), options.Password);
            }
            catch (OperationCanceledException)
            {
                // Cancelled while connecting: close the connection once it exists.
                _ = connecting.ContinueWith(t => t.Result.Dispose(), TaskContinuationOptions.OnlyOnRanToCompletion);
                throw;
            }
        }
        catch (Exception ex) when (ex is RedisException or TimeoutException or System.Net.Sockets.SocketException)
        {
            throw new CacheUnavailableException($"Could not connect to the cache server of connection '{connectionName}': {Redact(ex.Message, options.Password)}");
        }
    }

    public Task SetAsync(string key, byte[] value, TimeSpan timeToLive) => database.StringSetAsync(key, value, timeToLive);

    public async Task<int?> GetAsync(string key)
    {
        var value = await database.StringGetAsync(key);
        return value.IsNull ? null : ((byte[])value!).Length;
    }

    public Task<long> DeleteAsync(string[] keys) => database.KeyDeleteAsync(keys.Select(k => (RedisKey)k).ToArray());

    public string Endpoint { get; }

    /// <summary>Messages of this library name endpoints, not passwords; this makes sure of it.</summary>
    public string Redact(string message) => Redact(message, password);

    public static string Redact(string message, string? password) =>
        string.IsNullOrEmpty(password) ? message : message.Replace(password, "***", StringComparison.Ordinal);

    public async ValueTask DisposeAsync() => await connection.CloseAsync(allowCommandsToComplete: false);
}

/// <summary>The cache cannot be used at all (cannot connect, or lost and not back in time); ends the run as failed.</summary>
public sealed class CacheUnavailableException(string message) : Exception(message);
