namespace BenchDashboard.Runner.Http;

/// <summary>What sends an HTTP run's requests.</summary>
public enum HttpEngine
{
    /// <summary>The lean engine for every request it speaks (<see cref="Lean.LeanRequest.Speaks"/>), SocketsHttpHandler for the rest.</summary>
    Auto,
    /// <summary>Always SocketsHttpHandler: the client .NET applications use.</summary>
    Sockets,
}
