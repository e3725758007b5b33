namespace BenchDashboard.Core.Agents;

/// <summary>
/// The link between runner agents on other machines and the dashboard (issue 16): agents dial out to
/// <see cref="Path"/> over a WebSocket (so they work behind NAT and through App Service), authenticate with
/// <c>Authorization: Bearer &lt;key&gt;</c> and their name in <see cref="NameHeader"/>, and exchange JSON
/// <see cref="AgentFrame"/>s. Either side that hears nothing for <see cref="Lease"/> takes the other as lost;
/// each sends a heartbeat every <see cref="Heartbeat"/>, and any frame renews the lease.
/// </summary>
public static class AgentProtocol
{
    public const string Path = "/agents/connect";
    public const string NameHeader = "X-Agent-Name";
    public const int Version = 1;
    public static readonly TimeSpan Lease = TimeSpan.FromSeconds(3);
    public static readonly TimeSpan Heartbeat = TimeSpan.FromSeconds(1);

    /// <summary>Clock exchanges per estimate of an agent's offset; the one with the shortest round trip is kept.</summary>
    public const int ClockExchanges = 8;

    /// <summary>An agent measures its clock offset again this often, as clocks drift.</summary>
    public static readonly TimeSpan ClockInterval = TimeSpan.FromSeconds(30);

    /// <summary>Frames larger than this are refused: control frames are small.</summary>
    public const int MaxFrameBytes = 16 * 1024;

    /// <summary>This machine's UTC clock in Unix microseconds (the realtime clock: agents' clocks are compared with it).</summary>
    public static long NowUs() => (DateTime.UtcNow - DateTime.UnixEpoch).Ticks / 10;

    /// <summary>Agent names: what <c>Agents:Keys:&lt;name&gt;</c> and the pages show.</summary>
    public static bool IsValidName(string? name) =>
        name is { Length: > 0 and <= 64 } && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');
}

/// <summary>The frame types (<see cref="AgentFrame.Type"/>).</summary>
public static class AgentFrameTypes
{
    /// <summary>Agent → dashboard, first: its machine and version.</summary>
    public const string Hello = "hello";

    /// <summary>Dashboard → agent, the answer to hello: the lease and heartbeat it keeps, and the agent's epoch (a newer connection of the same name has a higher one).</summary>
    public const string Welcome = "welcome";

    /// <summary>Agent → dashboard: its clock (<see cref="AgentFrame.AgentTimeUs"/>), for a <see cref="Pong"/>.</summary>
    public const string Ping = "ping";

    /// <summary>Dashboard → agent: the ping's time back with the dashboard's clock.</summary>
    public const string Pong = "pong";

    /// <summary>Agent → dashboard: its estimated clock offset and the round trip it came from.</summary>
    public const string Clock = "clock";

    /// <summary>Either way, every <see cref="AgentProtocol.Heartbeat"/>: keeps the lease when nothing else is said.</summary>
    public const string Heartbeat = "heartbeat";

    /// <summary>Dashboard → agent, before closing: why (replaced by a newer connection, shutting down).</summary>
    public const string Bye = "bye";
}

/// <summary>One control frame; which fields are set depends on <see cref="Type"/> (<see cref="AgentFrameTypes"/>). Times are Unix microseconds.</summary>
public sealed record AgentFrame
{
    public required string Type { get; init; }
    public string? Machine { get; init; }
    public int? Version { get; init; }
    public long? Epoch { get; init; }
    public int? LeaseMs { get; init; }
    public int? HeartbeatMs { get; init; }
    public long? AgentTimeUs { get; init; }
    public long? DashboardTimeUs { get; init; }
    public double? OffsetMs { get; init; }
    public double? RoundTripMs { get; init; }
    public string? Reason { get; init; }
}
