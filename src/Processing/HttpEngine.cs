namespace BenchDashboard.Processing;

/// <summary>What sends an HTTP run's requests.</summary>
public enum HttpEngine
{
    /// <summary>The lean engine for every request it speaks (plain http:// and https:// without framing headers of its own), SocketsHttpHandler for the rest.</summary>
    Auto,
    /// <summary>Always SocketsHttpHandler: the client .NET applications use.</summary>
    Sockets,
}
