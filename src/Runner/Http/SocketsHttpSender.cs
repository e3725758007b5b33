using System.Diagnostics;
using System.Net.Http;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Http.Io;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// One simulated client's requests of one variant, sent one after another (wrk's and ab's model of
/// "concurrency") through SocketsHttpHandler on a <see cref="SocketsHttpConnection"/>: its own, or the one its
/// worker's other variants share.
/// </summary>
sealed class SocketsHttpSender : IHttpSender
{
    static readonly string[] ResponseHeaders = ["Age", "Cache-Control", "ETag", "X-Cache"];
    static readonly string[] ContentHeaders = ["Expires", "Last-Modified"];

    readonly HttpParameters parameters;
    readonly Uri uri;
    readonly HttpMethod method;
    readonly byte[]? body;
    readonly SocketsHttpConnection connection;
    readonly bool ownsConnection;
    readonly byte[] buffer = new byte[16 * 1024];

    public CachingEvidence Evidence { get; } = new();

    /// <summary>The variant whose requests these are (each sample's series); null without variants.</summary>
    readonly string? series;

    /// <summary>The current request's answer so far: its headers' Stopwatch timestamp and status, once they arrived.</summary>
    long? headersAt;
    int? status;

    /// <param name="connection">The connection to send on, shared with the worker's other variants; null for one of its own.</param>
    public SocketsHttpSender(HttpParameters parameters, TargetPolicy policy, string? series = null, SocketsHttpConnection? connection = null)
    {
        HeaderLines.RefuseLineBreaks(parameters);
        this.parameters = parameters;
        this.series = series;
        uri = new Uri(parameters.Url);
        method = new HttpMethod(parameters.Method);
        body = parameters.Body is null ? null : System.Text.Encoding.UTF8.GetBytes(parameters.Body);
        ownsConnection = connection is null;
        this.connection = connection ?? new SocketsHttpConnection(parameters.Timeout, policy);
    }

    public TimeSpan Timeout => parameters.Timeout;

    /// <summary>
    /// Sends one request and reads the whole body. On a blocking connection a closed worker's request is sent with
    /// blocking calls on the worker's own thread (<see cref="BlockingIo"/>). Open-model runs never get a blocking
    /// connection (the pacer starts their requests and must not wait for a connect); the check here keeps it so for any caller.
    /// </summary>
    public ValueTask<Outcome> SendAsync(Operation operation, CancellationToken ct) =>
        Blocks(operation) ? SendAsync<BlockingIo>(operation, ct) : SendAsync<AsyncIo>(operation, ct);

    bool Blocks(Operation operation) => connection.Blocking && operation.Due is null;

    // Pooled: the box holds the outcome (about 100 bytes a request more than a sample's reference) and is reused.
    // Safe because its one caller, the load driver's worker, awaits it once.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    async ValueTask<Outcome> SendAsync<TIo>(Operation operation, CancellationToken ct) where TIo : struct, IIoAdapter
    {
        using var request = Request();
        (headersAt, status) = (null, null);
        operation.Clock.Start(); // the request message is made: what follows is the exchange
        using var response = await TIo.SendAsync(connection.Invoker, request, ct);
        Answered(response);
        // A blocking read takes no token: a timeout ends it by closing the response, and with it the connection.
        using var abort = TIo.CloseOnCancel(response, ct);
        using var stream = await TIo.ReadAsStreamAsync(response.Content, ct);
        long bytes = 0;
        int read;
        while ((read = await TIo.ReadAsync(stream, buffer, ct)) > 0) bytes += read;
        if (TIo.Blocks) ct.ThrowIfCancellationRequested(); // a body cut short by the timeout's close is no answer
        operation.Clock.Stop();
        RecordCachingEvidence(response);
        return Outcome() with { Bytes = bytes, Error = ErrorFor(status ?? 0) };
    }

    /// <summary>
    /// The error a target's fault is recorded as; null for what is not the target's. A blocking call cut short by the
    /// timeout's close fails as a closed connection would: that is the timeout.
    /// </summary>
    public Outcome? Failed(Operation operation, Exception exception, bool timedOut)
    {
        ErrorKind? error = exception switch
        {
            IOException or ObjectDisposedException or HttpRequestException or OperationCanceledException when timedOut && Blocks(operation) => ErrorKind.Timeout,
            HttpRequestException { InnerException: TargetRefusedException refused } => throw refused, // the run may not go there at all
            OperationCanceledException => ErrorKind.Timeout,
            HttpRequestException or IOException or SocketException => TransportErrorClassifier.Classify(exception),
            _ => null,
        };
        return error is { } kind ? Outcome() with { Error = kind } : null;
    }

    HttpRequestMessage Request()
    {
        var request = new HttpRequestMessage(method, uri);
        foreach (var (name, value) in parameters.Headers)
            if (!request.Headers.TryAddWithoutValidation(name, value))
                (request.Content ??= new ByteArrayContent(body ?? [])).Headers.TryAddWithoutValidation(name, value);
        if (body is not null) request.Content ??= new ByteArrayContent(body);
        if (!parameters.KeepAlive) request.Headers.ConnectionClose = true;
        return request;
    }

    void Answered(HttpResponseMessage response)
    {
        var now = Stopwatch.GetTimestamp();
        // SocketsHttpHandler drops a Content-Length it cannot read and takes the body to the close: a length that is
        // no number is a broken answer, with no status, as the lean engine records it, not a body of any length.
        if (response.Content.Headers.ContentLength is null && response.Content.Headers.NonValidated.Contains("Content-Length"))
            throw new HttpRequestException(HttpRequestError.InvalidResponse, "The response's Content-Length is not a number.");
        (headersAt, status) = (now, (int)response.StatusCode);
    }

    /// <summary>What the request gave so far: its series, a connect made for it, its headers' time and status once they arrived.</summary>
    Outcome Outcome() => new() { Series = series, ConnectTicks = connection.TakeConnectTicks(), HeadersAt = headersAt, StatusCode = status };

    /// <summary>What a complete answer with this status counts as.</summary>
    public static ErrorKind ErrorFor(int statusCode) =>
        statusCode == 429 ? ErrorKind.Throttled : statusCode >= 400 ? ErrorKind.HttpStatus : ErrorKind.None;

    void RecordCachingEvidence(HttpResponseMessage response)
    {
        foreach (var name in ResponseHeaders)
            if (response.Headers.NonValidated.TryGetValues(name, out var values)) Evidence.Add(name, values.ToString());
        foreach (var name in ContentHeaders)
            if (response.Content.Headers.NonValidated.TryGetValues(name, out var values)) Evidence.Add(name, values.ToString());
    }

    public void Dispose()
    {
        if (ownsConnection) connection.Dispose();
    }
}
