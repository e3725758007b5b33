using BenchDashboard.Core.Runs;
using StackExchange.Redis;

namespace BenchDashboard.Runner.Cache;

/// <summary>Maps a failed cache operation to an <see cref="ErrorKind"/>.</summary>
public static class CacheErrorClassifier
{
    public static ErrorKind Classify(Exception ex) => ex switch
    {
        TimeoutException => ErrorKind.Timeout, // RedisTimeoutException, and our own per-operation timeout
        RedisConnectionException c => c.FailureType is ConnectionFailureType.UnableToConnect or ConnectionFailureType.UnableToResolvePhysicalConnection
            ? ErrorKind.ConnectionRefused
            : ErrorKind.ConnectionReset,
        RedisServerException => ErrorKind.ServerError, // an error reply: OOM, max clients, READONLY, …
        ObjectDisposedException or System.IO.IOException or System.Net.Sockets.SocketException => ErrorKind.ConnectionReset,
        _ => ErrorKind.Other,
    };

    /// <summary>Errors after which the next operation would fail the same way until the connection is back.</summary>
    public static bool IsConnectionLoss(ErrorKind kind) => kind is ErrorKind.ConnectionRefused or ErrorKind.ConnectionReset;
}
