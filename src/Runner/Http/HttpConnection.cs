using System.Diagnostics;
using System.Net.Http;
using System.Net.Sockets;
using BenchDashboard.Core.Kinds.Http;
using BenchDashboard.Core.Runs;
using BenchDashboard.Core.Security;
using BenchDashboard.Runner.Execution;

namespace BenchDashboard.Runner.Http;

/// <summary>
/// One simulated client's requests of one variant, sent one after another (wrk's and ab's model of
/// "concurrency") on a <see cref="HttpChannel"/>: its own, or the one its worker's other variants share.
/// </summary>
sealed class HttpConnection : IHttpSender
{
    static readonly string[] ResponseHeaders = ["Age", "Cache-Control", "ETag", "X-Cache"];
    static readonly string[] ContentHeaders = ["Expires", "Last-Modified"];

    readonly HttpParameters parameters;
    readonly Uri uri;
    readonly HttpMethod method;
    readonly byte[]? body;
    readonly HttpChannel channel;
    readonly bool ownsChannel;
    readonly byte[] buffer = new byte[16 * 1024];

    readonly OperationTimeout timeout;

    public CachingEvidence Evidence { get; } = new();

    /// <summary>The variant whose requests these are (each sample's series); null without variants.</summary>
    readonly string? series;

    /// <param name="channel">The connection to send on, shared with the worker's other variants; null for one of its own.</param>
    public HttpConnection(HttpParameters parameters, TargetPolicy policy, string? series = null, HttpChannel? channel = null)
    {
        HeaderLines.RefuseLineBreaks(parameters);
        this.parameters = parameters;
        this.series = series;
        uri = new Uri(parameters.Url);
        method = new HttpMethod(parameters.Method);
        body = parameters.Body is null ? null : System.Text.Encoding.UTF8.GetBytes(parameters.Body);
        ownsChannel = channel is null;
        this.channel = channel ?? new HttpChannel(parameters.Timeout, policy);
        timeout = new OperationTimeout(parameters.Timeout);
    }

    /// <summary>
    /// Sends one request and reads the whole body; never throws for a fault of the target. In the open model the
    /// latency counts from when the request was due (<see cref="Operation.LatencyNs"/>); the time to its headers
    /// always from when it was sent. On a blocking channel a closed worker's request is sent with blocking calls on
    /// the worker's own thread (<see cref="HttpChannel.Blocking"/>). Open-model runs never get a blocking channel (the
    /// pacer starts their requests and must not wait for a connect); the check here keeps it so for any caller.
    /// </summary>
    public ValueTask<Sample> SendAsync(Operation operation, CancellationToken runToken) =>
        channel.Blocking && operation.Due is null ? new(Send(operation, runToken)) : SendAsyncCore(operation, runToken);

    async ValueTask<Sample> SendAsyncCore(Operation operation, CancellationToken runToken)
    {
        using var request = Request();
        var (sample, start) = Start(operation);
        var ct = timeout.Arm(runToken);
        try
        {
            using var response = await channel.Invoker.SendAsync(request, ct);
            Answered(sample, response, start);
            await using var stream = await response.Content.ReadAsStreamAsync(ct);
            long bytes = 0;
            int read;
            while ((read = await stream.ReadAsync(buffer, ct)) > 0) bytes += read;
            Finished(operation, sample, response, start, bytes);
        }
        catch (HttpRequestException ex) when (ex.InnerException is TargetRefusedException refused)
        {
            throw refused; // not a fault of the target: the run may not go there at all
        }
        catch (Exception ex) when (Fault(ex, runToken) is { } error)
        {
            sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
            sample.Error = error;
        }
        finally
        {
            timeout.Disarm();
        }
        return Connected(sample);
    }

    Sample Send(Operation operation, CancellationToken runToken)
    {
        using var request = Request();
        var (sample, start) = Start(operation);
        var ct = timeout.Arm(runToken);
        try
        {
            using var response = channel.Invoker.Send(request, ct);
            Answered(sample, response, start);
            // A blocking read takes no token: a timeout ends it by closing the response, and with it the connection.
            using var abort = ct.UnsafeRegister(static r => ((HttpResponseMessage)r!).Dispose(), response);
            using var stream = response.Content.ReadAsStream(ct);
            long bytes = 0;
            int read;
            while ((read = stream.Read(buffer)) > 0) bytes += read;
            ct.ThrowIfCancellationRequested(); // a body cut short by the timeout's close is no answer
            Finished(operation, sample, response, start, bytes);
        }
        catch (Exception ex) when (ct.IsCancellationRequested && ex is IOException or ObjectDisposedException or HttpRequestException or OperationCanceledException)
        {
            runToken.ThrowIfCancellationRequested(); // the run's end, not the target's fault
            sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
            sample.Error = ErrorKind.Timeout;
        }
        catch (HttpRequestException ex) when (ex.InnerException is TargetRefusedException refused)
        {
            throw refused; // not a fault of the target: the run may not go there at all
        }
        catch (Exception ex) when (Fault(ex, runToken) is { } error)
        {
            sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
            sample.Error = error;
        }
        finally
        {
            timeout.Disarm();
        }
        return Connected(sample);
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

    (Sample Sample, long Start) Start(Operation operation)
    {
        var sample = operation.Sample();
        sample.Series = series;
        var start = Stopwatch.GetTimestamp();
        operation.Started(sample, start);
        return (sample, start);
    }

    static void Answered(Sample sample, HttpResponseMessage response, long start)
    {
        var now = Stopwatch.GetTimestamp();
        // SocketsHttpHandler drops a Content-Length it cannot read and takes the body to the close: a length that is
        // no number is a broken answer, with no status, as the lean engine records it, not a body of any length.
        if (response.Content.Headers.ContentLength is null && response.Content.Headers.NonValidated.Contains("Content-Length"))
            throw new HttpRequestException(HttpRequestError.InvalidResponse, "The response's Content-Length is not a number.");
        sample.HeadersNs = Ticks.ToNanoseconds(now - start);
        sample.StatusCode = (int)response.StatusCode;
    }

    void Finished(Operation operation, Sample sample, HttpResponseMessage response, long start, long bytes)
    {
        sample.LatencyNs = operation.LatencyNs(start, Stopwatch.GetTimestamp());
        sample.Bytes = bytes;
        sample.Error = ErrorFor(sample.StatusCode ?? 0);
        RecordCachingEvidence(response);
    }

    /// <summary>What a complete answer with this status counts as.</summary>
    public static ErrorKind ErrorFor(int statusCode) =>
        statusCode == 429 ? ErrorKind.Throttled : statusCode >= 400 ? ErrorKind.HttpStatus : ErrorKind.None;

    /// <summary>The error a target's fault is recorded as; null for what is not the target's.</summary>
    static ErrorKind? Fault(Exception ex, CancellationToken runToken) => ex switch
    {
        OperationCanceledException oce when OperationTimeout.IsTimeout(oce, runToken) => ErrorKind.Timeout,
        HttpRequestException or IOException or SocketException => TransportErrorClassifier.Classify(ex),
        _ => null,
    };

    Sample Connected(Sample sample)
    {
        if (channel.TakeConnectTicks() is { } connect) sample.ConnectNs = Ticks.ToNanoseconds(connect);
        return sample;
    }

    void RecordCachingEvidence(HttpResponseMessage response)
    {
        foreach (var name in ResponseHeaders)
            if (response.Headers.NonValidated.TryGetValues(name, out var values)) Evidence.Add(name, values.ToString());
        foreach (var name in ContentHeaders)
            if (response.Content.Headers.NonValidated.TryGetValues(name, out var values)) Evidence.Add(name, values.ToString());
    }

    public void Dispose()
    {
        timeout.Dispose();
        if (ownsChannel) channel.Dispose();
    }
}
