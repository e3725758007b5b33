namespace BenchDashboard.Core.Runs;

/// <summary>
/// How a request or operation failed. <see cref="None"/> means it got an answer (an HTTP status below 400,
/// a cache hit or miss).
/// </summary>
public enum ErrorKind
{
    None = 0,
    /// <summary>The target actively refused the TCP connection, or no connection to it could be made.</summary>
    ConnectionRefused = 1,
    /// <summary>No complete response within the request timeout.</summary>
    Timeout = 2,
    /// <summary>The connection was reset, closed or lost mid-exchange, or another socket/IO failure.</summary>
    ConnectionReset = 3,
    /// <summary>A complete response with status 400 or above (its latency is still measured).</summary>
    HttpStatus = 4,
    /// <summary>Anything else (DNS failure, TLS failure, protocol violation); the message is logged.</summary>
    Other = 5,
    /// <summary>
    /// The server answered with an error instead of a result: a Redis error reply such as OOM (maxmemory
    /// reached) or max clients; the analogue of an HTTP 5xx for protocols without statuses.
    /// </summary>
    ServerError = 6,
    /// <summary>
    /// The service asked the client to slow down: HTTP 429, Table Storage's 503 "ServerBusy". An answer, so it
    /// keeps its latency; counted apart because it is a finding about the service's limits (seed 004 met rate
    /// limits at 10,000 writes), not a broken request.
    /// </summary>
    Throttled = 7,
    /// <summary>
    /// A journey step's answer came, but one of its checks failed ("check failed: $.items is empty"), or a value it
    /// must extract was missing: an answer, so it keeps its latency; counted per step.
    /// </summary>
    CheckFailed = 8,
    /// <summary>
    /// A journey step's URL, once its variables were filled in, is one the target policy refuses: nothing was sent,
    /// so it has no latency.
    /// </summary>
    TargetRefused = 9,
}

public static class ErrorKindExtensions
{
    /// <summary>True for failures that produced no complete response, so their duration is not a latency.</summary>
    /// An error reply (<see cref="ErrorKind.ServerError"/>, <see cref="ErrorKind.Throttled"/>) is a complete answer too, so it keeps its latency.
    public static bool IsTransportError(this ErrorKind kind) => kind is not (ErrorKind.None or ErrorKind.HttpStatus or ErrorKind.ServerError or ErrorKind.Throttled or ErrorKind.CheckFailed);
}
