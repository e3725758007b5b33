using System.Net.Http;
using System.Net.Sockets;
using BenchDashboard.Core.Runs;

namespace BenchDashboard.Runner.Execution;

/// <summary>
/// Maps what SocketsHttpHandler throws (refused, reset, timed out, ended mid-answer) to the error kinds the
/// dashboard counts: shared by every kind that speaks HTTP (HTTP itself, and Table Storage through Azure.Core).
/// </summary>
public static class TransportErrorClassifier
{
    public static ErrorKind Classify(Exception ex)
    {
        for (var e = ex; e is not null; e = e.InnerException)
        {
            if (e is SocketException socket)
                return socket.SocketErrorCode switch
                {
                    SocketError.ConnectionRefused => ErrorKind.ConnectionRefused,
                    SocketError.TimedOut => ErrorKind.Timeout,
                    SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown
                        or SocketError.NotConnected or SocketError.Disconnecting => ErrorKind.ConnectionReset,
                    _ => ErrorKind.Other,
                };
        }
        for (var e = ex; e is not null; e = e.InnerException)
        {
            // A broken answer (a chunk size that is no number, say) arrives as an IOException too, but it is a protocol violation.
            if (e is HttpRequestException { HttpRequestError: HttpRequestError.InvalidResponse } or HttpIOException { HttpRequestError: HttpRequestError.InvalidResponse })
                return ErrorKind.Other;
            if (e is HttpRequestException { HttpRequestError: HttpRequestError.ResponseEnded }) return ErrorKind.ConnectionReset;
            if (e is HttpIOException { HttpRequestError: HttpRequestError.ResponseEnded }) return ErrorKind.ConnectionReset;
            if (e is IOException) return ErrorKind.ConnectionReset;
        }
        return ErrorKind.Other;
    }
}
