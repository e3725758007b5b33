namespace BenchDashboard.Core.Agents;

/// <summary>
/// The link between runner agents on other machines and the dashboard: agents dial out to
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

    /// <summary>Messages larger than this are refused: a sample frame of <see cref="SampleFrames.MaxCount"/> samples fits, or a shard's parameters.</summary>
    public const int MaxFrameBytes = 320 * 1024;

    /// <summary>A run's agents start this long after the last of them is ready: time for the start frame to reach every one.</summary>
    public static readonly TimeSpan StartLead = TimeSpan.FromSeconds(1);

    /// <summary>Sample frames an agent may have sent and not yet had acknowledged (<see cref="AckWindow"/>).</summary>
    public const int AckWindowFrames = 16;

    /// <summary>This machine's UTC clock in Unix microseconds (the realtime clock: agents' clocks are compared with it).</summary>
    public static long NowUs() => (DateTime.UtcNow - DateTime.UnixEpoch).Ticks / 10;

    /// <summary>Agent names: what <c>Agents:Keys:&lt;name&gt;</c> and the pages show.</summary>
    public static bool IsValidName(string? name) =>
        name is { Length: > 0 and <= 64 } && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');
}

/// <summary>The frame types (<see cref="AgentFrame.Type"/>).</summary>
public static class AgentFrameTypes
{
    /// <summary>Agent → dashboard, first: its machine, version and environment (<see cref="AgentFrame.EnvironmentJson"/>).</summary>
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

    /// <summary>Dashboard → agent: a shard of a run is leased to it (<see cref="AgentFrame.RunId"/>, shard, epoch, kind, parameters, series).</summary>
    public const string Assign = "assign";

    /// <summary>Agent → dashboard: ready to start its shard (with its environment), or <see cref="AgentFrame.Reason"/> why it cannot.</summary>
    public const string Ready = "ready";

    /// <summary>Dashboard → agent: start the shard at <see cref="AgentFrame.DashboardTimeUs"/> on the dashboard's clock.</summary>
    public const string Start = "start";

    /// <summary>Agent → dashboard: when it actually started, on the dashboard's clock (<see cref="AgentFrame.DashboardTimeUs"/>).</summary>
    public const string Started = "started";

    /// <summary>Agent → dashboard: its shard's load ended; <see cref="AgentFrame.Samples"/> measured, in <see cref="AgentFrame.Frames"/> sample frames.</summary>
    public const string Done = "done";

    /// <summary>Dashboard → agent: stop the shard's load now (a cancel, a lost agent, the run's budget), and send what was measured.</summary>
    public const string Stop = "stop";

    /// <summary>Dashboard → agent: a shard's sample frames through <see cref="AgentFrame.Acked"/> were taken by the run's sample writer.</summary>
    public const string Ack = "ack";
}

/// <summary>One control frame; which fields are set depends on <see cref="Type"/> (<see cref="AgentFrameTypes"/>). Times are Unix microseconds.</summary>
public sealed record AgentFrame
{
    public required string Type { get; init; }
    public string? Machine { get; init; }
    public int? Version { get; init; }

    /// <summary>With a <see cref="AgentFrameTypes.Hello"/>: the agent's own public base address (<see cref="AgentBaseUrl"/>), when it has one.</summary>
    public string? BaseUrl { get; init; }
    public long? Epoch { get; init; }
    public int? LeaseMs { get; init; }
    public int? HeartbeatMs { get; init; }
    public long? AgentTimeUs { get; init; }
    public long? DashboardTimeUs { get; init; }
    public double? OffsetMs { get; init; }
    public double? RoundTripMs { get; init; }
    public string? Reason { get; init; }

    /// <summary>With a <see cref="AgentFrameTypes.Ready"/> that refuses: the agent is still busy with another run's shard (ask again), not unable to run this one.</summary>
    public bool? Busy { get; init; }

    /// <summary>With a <see cref="AgentFrameTypes.Done"/>: the shard's load failed (<see cref="Reason"/> says how), rather than being stopped.</summary>
    public bool? Failed { get; init; }
    /// <summary>
    /// With an <see cref="AgentFrameTypes.Assign"/>: the agent runs the whole workload, not a share of it (a run on each
    /// named agent in turn, <see cref="OnEach"/>), so a kind whose load does not divide (file system, cache, Table) runs too.
    /// </summary>
    public bool? WholeWorkload { get; init; }
    public long? RunId { get; init; }
    public int? Shard { get; init; }
    public string? Kind { get; init; }
    public string? ParametersJson { get; init; }
    public IReadOnlyList<string>? Series { get; init; }
    public string? EnvironmentJson { get; init; }
    public string? NotesJson { get; init; }
    public long? Samples { get; init; }
    public long? Frames { get; init; }
    public long? Acked { get; init; }
}
