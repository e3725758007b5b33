namespace BenchDashboard.Core.Runs;

/// <summary>How a request failed. <see cref="None"/> means it got a response with a status below 400.</summary>
public enum ErrorKind
{
    None = 0,
    /// <summary>The target actively refused the TCP connection.</summary>
    ConnectionRefused = 1,
    /// <summary>No complete response within the request timeout.</summary>
    Timeout = 2,
    /// <summary>The connection was reset or closed mid-exchange, or another socket/IO failure.</summary>
    ConnectionReset = 3,
    /// <summary>A complete response with status 400 or above (its latency is still measured).</summary>
    HttpStatus = 4,
    /// <summary>Anything else (DNS failure, TLS failure, protocol violation); the message is logged.</summary>
    Other = 5,
}

public static class ErrorKindExtensions
{
    /// <summary>True for failures that produced no complete response, so their duration is not a latency.</summary>
    public static bool IsTransportError(this ErrorKind kind) => kind is not (ErrorKind.None or ErrorKind.HttpStatus);
}
