using BenchDashboard.Core.Runs;
using StackExchange.Redis;

namespace BenchDashboard.Runner.Cache;

/// <summary>Maps a failed cache operation to an <see cref="ErrorKind"/>.</summary>
public static class CacheErrorClassifier
{
    public static ErrorKind Classify(Exception ex) => ex switch
    {
        TimeoutException => ErrorKind.Timeout, // RedisTimeoutException, and our own per-operation timeout
        // Unable to resolve a physical connection: no connection was up (FailFast), so the command was never sent;
        // with the server gone that is what a refused connect is. A connection that broke under a command is a reset.
        RedisConnectionException c => c.FailureType is ConnectionFailureType.UnableToConnect or ConnectionFailureType.UnableToResolvePhysicalConnection
            ? ErrorKind.ConnectionRefused
            : ErrorKind.ConnectionReset,
        RedisServerException => ErrorKind.ServerError, // an error reply: OOM, max clients, READONLY, …
        ObjectDisposedException or System.IO.IOException or System.Net.Sockets.SocketException => ErrorKind.ConnectionReset,
        _ => ErrorKind.Other,
    };

    /// <summary>Failures that got no answer from the server (unlike an error reply): lost, refused or timed out.</summary>
    public static bool IsNoAnswer(ErrorKind kind) => kind is ErrorKind.ConnectionRefused or ErrorKind.ConnectionReset or ErrorKind.Timeout;
}
