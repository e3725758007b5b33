using System.Diagnostics;
using System.Net.Sockets;
using System.Reflection;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;
using Azure.Data.Tables;
using BenchDashboard.Core.Kinds.Tables;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// One worker's <see cref="TableClient"/> for one variant: its own handler limited to one connection (so the
/// connect observed belongs to the request being sent), with the variant's two toggles applied where .NET
/// applies them.
/// <list type="bullet">
/// <item>Nagle: the socket is created in <see cref="SocketsHttpHandler.ConnectCallback"/> with
/// <c>NoDelay = !nagle</c>. .NET's default is NoDelay (Nagle off); <c>ServicePointManager</c>, which seed 003
/// used, does nothing for HttpClient.</item>
/// <item>Expect: a per-call pipeline policy adds <c>Expect: 100-continue</c>; the handler waits up to
/// <see cref="Expect100ContinueTimeout"/> for the interim answer before sending the body anyway.</item>
/// <item>Nothing is retried (<c>Retry.MaxRetries = 0</c>): a retried request would masquerade as one slow sample.</item>
/// <item>The service version is pinned (<see cref="ServiceVersion"/>), so an SDK upgrade cannot change what is measured unnoticed.</item>
/// </list>
/// </summary>
internal sealed class TableConnection : IDisposable
{
    /// <summary>.NET's default, set explicitly: a server that never sends "100 Continue" costs at most this.</summary>
    public static readonly TimeSpan Expect100ContinueTimeout = TimeSpan.FromSeconds(1);

    /// <summary>The x-ms-version every request sends: Azure.Data.Tables 12.13's default, named.</summary>
    public const TableClientOptions.ServiceVersion PinnedVersion = TableClientOptions.ServiceVersion.V2020_12_06;
    public static readonly string ServiceVersion = PinnedVersion.ToString()[1..].Replace('_', '-'); // V2020_12_06 → 2020-12-06

    /// <summary>"Azure.Data.Tables 12.13.0", for the run page.</summary>
    public static readonly string SdkVersion = $"Azure.Data.Tables {typeof(TableClient).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0]}";

    readonly SocketsHttpHandler handler;
    long pendingConnectTicks = -1;

    public TableConnection(TableTarget target, string table, TableVariant variant, TimeSpan timeout)
    {
        var nagle = variant.Nagle;
        handler = new SocketsHttpHandler
        {
            MaxConnectionsPerServer = 1,
            ConnectTimeout = timeout,
            Expect100ContinueTimeout = Expect100ContinueTimeout,
            PooledConnectionIdleTimeout = System.Threading.Timeout.InfiniteTimeSpan,
            UseProxy = false,
            UseCookies = false,
            AllowAutoRedirect = false,
            ConnectCallback = async (context, ct) =>
            {
                var start = Stopwatch.GetTimestamp();
                var stream = await ConnectAsync(context.DnsEndPoint, noDelay: !nagle, ct);
                Volatile.Write(ref pendingConnectTicks, Stopwatch.GetTimestamp() - start);
                return stream;
            },
        };
        if (target.ServerCertificate is { } check) handler.SslOptions.RemoteCertificateValidationCallback = check;

        var options = new TableClientOptions(PinnedVersion) { Transport = new HttpClientTransport(handler) };
        options.Retry.MaxRetries = 0;
        options.Retry.NetworkTimeout = timeout;
        options.Diagnostics.IsLoggingEnabled = false;
        options.Diagnostics.IsDistributedTracingEnabled = false;
        options.EnableTenantDiscovery = false; // discovery sends an unauthorised request first and then a second one
        options.AddPolicy(new BatchBodyLimitPolicy(), HttpPipelinePosition.PerCall);
        if (variant.Expect100Continue) options.AddPolicy(new ExpectContinuePolicy(), HttpPipelinePosition.PerCall);
        Client = new SdkTableClient(Create(target, table, options));
    }

    public ITableClient Client { get; }

    static TableClient Create(TableTarget target, string table, TableClientOptions options)
    {
        var account = target.Account;
        return account.SignIn switch
        {
            TableSignIn.SharedKey => new TableClient(account.Endpoint, table, new TableSharedKeyCredential(account.AccountName, account.Secret), options),
            // This constructor takes the table's own address: the service root plus the table name.
            TableSignIn.Sas => new TableClient(new Uri($"{account.Endpoint.AbsoluteUri.TrimEnd('/')}/{table}"), new AzureSasCredential(account.Secret!), options),
            _ => new TableClient(account.Endpoint, table, target.Token ?? throw new InvalidOperationException("A token connection needs its credential."), options),
        };
    }

    /// <summary>A TCP connection with Nagle's algorithm on or off, as a variant asks.</summary>
    internal static async ValueTask<Stream> ConnectAsync(System.Net.DnsEndPoint endPoint, bool noDelay, CancellationToken ct)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = noDelay };
        try
        {
            await socket.ConnectAsync(endPoint, ct);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>The connect time of a connection opened since the last call, in Stopwatch ticks; null if none was.</summary>
    public long? TakeConnectTicks() => Interlocked.Exchange(ref pendingConnectTicks, -1) is var t && t >= 0 ? t : null;

    public void Dispose()
    {
        handler.Dispose();
    }
}
