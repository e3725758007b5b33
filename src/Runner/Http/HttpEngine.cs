namespace BenchDashboard.Runner.Http;

/// <summary>What sends an HTTP run's requests.</summary>
public enum HttpEngine
{
    /// <summary>The lean engine for every request it speaks (plain http://, no header it must set itself), SocketsHttpHandler for the rest.</summary>
    Auto,
    /// <summary>Always SocketsHttpHandler: the client .NET applications use.</summary>
    Sockets,
}
