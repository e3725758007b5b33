using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http.Lean;

/// <summary>
/// One simulated client's requests of one variant on the lean engine: the request's bytes built once, sent on
/// the worker's <see cref="LeanChannel"/>, the answer read by a <see cref="ResponseParser"/>. The sample is the
/// one <see cref="HttpConnection"/> would record for the same exchange. With a <see cref="BatchTurn"/>, a closed-model
/// answer, once timed, waits for its turn before its sample is handed on.
/// </summary>
sealed class LeanConnection(HttpParameters parameters, LeanChannel channel, string? series, BatchTurn? turn = null) : IHttpSender
{
    readonly LeanRequest request = new(parameters);
    readonly OperationTimeout timeout = new(parameters.Timeout);

    public CachingEvidence Evidence { get; } = new();

    ResponseParser? parser;

    public ValueTask<Sample> SendAsync(Operation operation, CancellationToken runToken) =>
        channel.Blocking && operation.Due is null ? new(Send(operation, runToken)) : SendAsyncCore(operation, runToken);

    // Pooled: the state machine's box (about 300 bytes a request when the answer is awaited) is reused. Safe because
    // every caller awaits the ValueTask once (the load driver, the self warm-up).
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    async ValueTask<Sample> SendAsyncCore(Operation operation, CancellationToken runToken)
    {
        var (sample, start, answer) = Start(operation);
        var ct = timeout.Arm(runToken);
        try
        {
            var reused = channel.IsConnected;
            try
            {
                Connected(sample, await channel.ConnectAsync(request, ct));
                await channel.ExchangeAsync(request, answer, ct);
            }
            catch (Exception ex) when (reused && LeftIdle(ex, answer))
            {
                channel.Close();
                Connected(sample, await channel.ConnectAsync(request, ct));
                answer.Reset(request.IsHead);
                await channel.ExchangeAsync(request, answer, ct);
            }
            Finished(operation, sample, start, answer);
        }
        catch (Exception ex) when (Fault(ex, runToken) is { } error)
        {
            channel.Close();
            Failed(operation, sample, start, answer, error);
        }
        finally
        {
            timeout.Disarm();
        }
        // Timed: what is left (recording the sample, sending the next request) waits for the answers that came with this one.
        if (turn is not null && operation.Due is null) await turn.Next();
        return sample;
    }

    Sample Send(Operation operation, CancellationToken runToken)
    {
        var (sample, start, answer) = Start(operation);
        var ct = timeout.Arm(runToken);
        try
        {
            var reused = channel.IsConnected;
            try
            {
                Connected(sample, channel.Connect(request, ct));
                channel.Exchange(request, answer, ct);
            }
            catch (Exception ex) when (reused && LeftIdle(ex, answer))
            {
                channel.Close();
                Connected(sample, channel.Connect(request, ct));
                answer.Reset(request.IsHead);
                channel.Exchange(request, answer, ct);
            }
            Finished(operation, sample, start, answer);
        }
        catch (Exception ex) when (Fault(ex, runToken) is { } error)
        {
            channel.Close();
            Failed(operation, sample, start, answer, error);
        }
        finally
        {
            timeout.Disarm();
        }
        return sample;
    }

    (Sample Sample, long Start, ResponseParser Answer) Start(Operation operation)
    {
        var sample = operation.Sample();
        sample.Series = series;
        var answer = parser ??= new ResponseParser(Evidence);
        answer.Reset(request.IsHead);
        channel.Begin();
        var start = Stopwatch.GetTimestamp();
        operation.Started(sample, start);
        return (sample, start, answer);
    }

    /// <summary>
    /// A reused connection that fails before any byte of the answer arrived is one the server had let go while it
    /// was idle: the request is sent again on a new connection, as SocketsHttpHandler does, and not counted as a fault.
    /// </summary>
    static bool LeftIdle(Exception ex, ResponseParser answer) =>
        !answer.Started && (ex is ResponseEndedException || Dropped(ex) || ex is IOException { InnerException: { } inner } && Dropped(inner));

    static bool Dropped(Exception ex) =>
        ex is SocketException { SocketErrorCode: SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown };

    static void Connected(Sample sample, long? connectTicks)
    {
        if (connectTicks is { } ticks) sample.ConnectNs = Ticks.ToNanoseconds(ticks);
    }

    void Finished(Operation operation, Sample sample, long start, ResponseParser answer)
    {
        sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
        sample.HeadersNs = Ticks.ToNanoseconds(channel.HeadersAt - start);
        sample.StatusCode = answer.StatusCode;
        sample.Bytes = answer.BodyBytes;
        sample.Error = HttpConnection.ErrorFor(answer.StatusCode);
    }

    void Failed(Operation operation, Sample sample, long start, ResponseParser answer, ErrorKind error)
    {
        sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
        if (answer.HeadersDone)
        {
            // The headers arrived and the body did not: the status is known, as SocketsHttpHandler reports it.
            sample.HeadersNs = Ticks.ToNanoseconds(channel.HeadersAt - start);
            sample.StatusCode = answer.StatusCode;
        }
        sample.Error = error;
    }

    /// <summary>The error a target's fault is recorded as; null for what is not the target's (the run's cancel, a refused target).</summary>
    static ErrorKind? Fault(Exception ex, CancellationToken runToken) => ex switch
    {
        OperationCanceledException oce when OperationTimeout.IsTimeout(oce, runToken) => ErrorKind.Timeout,
        InvalidResponseException or AuthenticationException => ErrorKind.Other,
        IOException or SocketException => TransportErrorClassifier.Classify(ex),
        _ => null,
    };

    public void Dispose() => timeout.Dispose();
}
