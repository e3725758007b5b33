using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Runner.Execution;
using BenchDashboard.Runner.Http.Io;

namespace BenchDashboard.Runner.Http.Lean;

/// <summary>
/// One simulated client's requests of one variant on the lean engine: the request's bytes built once, sent on
/// the worker's <see cref="LeanHttpConnection"/>, the answer read by a <see cref="ResponseParser"/>. The outcome is
/// the one <see cref="SocketsHttpSender"/> gives for the same exchange. With a <see cref="BatchTurn"/>, a
/// closed-model answer, once timed, waits for its turn before it is handed on.
/// </summary>
sealed class LeanSender(HttpParameters parameters, LeanHttpConnection connection, string? series, BatchTurn? turn = null) : IHttpSender
{
    readonly LeanRequest request = new(parameters);

    public CachingEvidence Evidence { get; } = new();

    ResponseParser? parser;
    long? connectTicks;

    public TimeSpan Timeout => parameters.Timeout;

    /// <summary>
    /// A closed worker's request on a blocking connection is sent with blocking calls on the worker's own thread. The
    /// open model's never are (the pacer starts them and must not wait for a connect); the check here keeps it so.
    /// </summary>
    public ValueTask<Outcome> SendAsync(Operation operation, CancellationToken ct) =>
        connection.Blocking && operation.Due is null ? SendAsync<BlockingIo>(operation, ct) : SendAsync<AsyncIo>(operation, ct);

    // Pooled: the state machine's box (about 300 bytes a request when the answer is awaited) is reused. Safe because
    // every caller awaits the ValueTask once (the load driver's worker).
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    async ValueTask<Outcome> SendAsync<TIo>(Operation operation, CancellationToken ct) where TIo : struct, IIoAdapter
    {
        var answer = parser ??= new ResponseParser(Evidence);
        answer.Reset(request.IsHead);
        connection.Begin();
        connectTicks = null;
        operation.Clock.Start();
        var reused = connection.IsConnected;
        try
        {
            Connected(await connection.ConnectAsync<TIo>(request, ct));
            await connection.ExchangeAsync<TIo>(request, answer, ct);
        }
        catch (Exception ex) when (reused && LeftIdle(ex, answer))
        {
            connection.Close();
            Connected(await connection.ConnectAsync<TIo>(request, ct));
            answer.Reset(request.IsHead);
            await connection.ExchangeAsync<TIo>(request, answer, ct);
        }
        operation.Clock.Stop();
        // Timed: what is left (recording the sample, sending the next request) waits for the answers that came with this one.
        if (!TIo.Blocks && turn is not null && operation.Due is null) await turn.Next();
        return Answered(answer) with { Bytes = answer.BodyBytes, Error = SocketsHttpSender.ErrorFor(answer.StatusCode) };
    }

    /// <summary>
    /// A reused connection that fails before any byte of the answer arrived is one the server had let go while it
    /// was idle: the request is sent again on a new connection, as SocketsHttpHandler does, and not counted as a fault.
    /// </summary>
    static bool LeftIdle(Exception ex, ResponseParser answer) =>
        !answer.Started && (ex is ResponseEndedException || Dropped(ex) || ex is IOException { InnerException: { } inner } && Dropped(inner));

    static bool Dropped(Exception ex) =>
        ex is SocketException { SocketErrorCode: SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown };

    void Connected(long? ticks)
    {
        if (ticks is not null) connectTicks = ticks;
    }

    /// <summary>What any answer gave so far: its series, a connect made for it, and once its headers arrived, their time and the status.</summary>
    Outcome Answered(ResponseParser? answer) => answer is { HeadersDone: true }
        ? new Outcome { Series = series, ConnectTicks = connectTicks, HeadersAt = connection.HeadersAt, StatusCode = answer.StatusCode }
        : new Outcome { Series = series, ConnectTicks = connectTicks };

    /// <summary>
    /// The error a target's fault is recorded as (a failed connection is closed: its state is unknown); null for what
    /// is not the target's (a refused target). The headers' time and the status stay when the body failed, as
    /// SocketsHttpHandler reports them.
    /// </summary>
    public Outcome? Failed(Operation operation, Exception exception, bool timedOut)
    {
        ErrorKind? error = exception switch
        {
            OperationCanceledException => ErrorKind.Timeout,
            InvalidResponseException or AuthenticationException => ErrorKind.Other,
            IOException or SocketException => TransportErrorClassifier.Classify(exception),
            _ => null,
        };
        if (error is null) return null;
        connection.Close();
        return Answered(parser) with { Error = error.Value };
    }

    public void Dispose() { }
}
