using System.Diagnostics;
using System.Net.Sockets;
using Azure.Core;
using Azure.Core.Pipeline;
using BenchDashboard.Core.Benchmarks.Tables;
using BenchDashboard.Runner.Tables.Protocol;

namespace BenchDashboard.Runner.Tables;

/// <summary>
/// One worker's client for one variant: its own handler limited to one connection (so the connect observed
/// belongs to the request being sent), with the variant's two toggles applied where .NET applies them.
/// <list type="bullet">
/// <item>Nagle: the socket is created in <see cref="SocketsHttpHandler.ConnectCallback"/> with
/// <c>NoDelay = !nagle</c>. .NET's default is NoDelay (Nagle off); <c>ServicePointManager</c>, which seed 003
/// used, does nothing for HttpClient.</item>
/// <item>Expect: a per-call pipeline policy adds <c>Expect: 100-continue</c>; the handler waits up to
/// <see cref="Expect100ContinueTimeout"/> for the interim answer before sending the body anyway.</item>
/// <item>Nothing is retried (<c>Retry.MaxRetries = 0</c>): a retried request would masquerade as one slow sample.</item>
/// </list>
/// </summary>
internal sealed class TableConnection : IDisposable
{
    /// <summary>.NET's default, set explicitly: a server that never sends "100 Continue" costs at most this.</summary>
    public static readonly TimeSpan Expect100ContinueTimeout = TimeSpan.FromSeconds(1);

    readonly SocketsHttpHandler handler;
    long pendingConnectTicks = -1;

    public TableConnection(TableAccount account, string table, TableVariant variant, TimeSpan timeout)
    {
        var nagle = variant.Nagle;
        handler = new SocketsHttpHandler
        {
            MaxConnectionsPerServer = 1,
            ConnectTimeout = timeout,
            Expect100ContinueTimeout = Expect100ContinueTimeout,
            PooledConnectionIdleTimeout = Timeout.InfiniteTimeSpan,
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
        var options = new TableProtocolOptions { Transport = new HttpClientTransport(handler) };
        options.Retry.MaxRetries = 0;
        options.Retry.NetworkTimeout = timeout;
        options.Diagnostics.IsLoggingEnabled = false;
        options.Diagnostics.IsDistributedTracingEnabled = false;
        if (variant.Expect100Continue) options.AddPolicy(new ExpectContinuePolicy(), HttpPipelinePosition.PerCall);
        Client = new RestTableClient(account, table, options);
    }

    public ITableClient Client { get; }

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

    public void Dispose() => handler.Dispose();
}
