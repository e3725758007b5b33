using System.Collections.Concurrent;
using BenchDashboard.Core.Agents;
using Microsoft.Extensions.Logging;

namespace BenchDashboard.Web.Agents;

/// <summary>An agent as the dashboard sees it: while linked, and for a while after it was lost.</summary>
public sealed class AgentState(string name, long epoch, string? remote)
{
    public string Name => name;

    /// <summary>Higher for each new link of the same name: a reconnect supersedes the older link.</summary>
    public long Epoch => epoch;
    public string? Remote => remote;
    public string? Machine { get; set; }
    public int? Version { get; set; }

    /// <summary>Its own public base address, from its hello (<see cref="AgentBaseUrl"/>): where a run "from outside" reaches it.</summary>
    public string? BaseUrl { get; set; }
    public DateTimeOffset LinkedAt { get; } = DateTimeOffset.UtcNow;
    public DateTimeOffset LastHeard { get; set; } = DateTimeOffset.UtcNow;
    public ClockOffset? Clock { get; set; }

    /// <summary>What the agent said of itself on linking: its platform settings (a configuration's WEBSITE_*) and process.</summary>
    public Core.Runs.EnvironmentSnapshot? Environment { get; set; }

    /// <summary>Where to send it frames: the link's sending half (sends are serialised there).</summary>
    public FrameLink? Link { get; set; }
    public DateTimeOffset? EndedAt { get; set; }
    public string? EndReason { get; set; }
    public bool Linked => EndedAt is null;
}

/// <summary>
/// The agents linked to this dashboard, and those lost in the last <see cref="KeepLost"/> (so a page can say
/// which agent went and why). One link per name: a new link of a name ends the older one.
/// </summary>
public sealed class AgentRegistry(ILogger<AgentRegistry> logger)
{
    public static readonly TimeSpan KeepLost = TimeSpan.FromHours(1);
    readonly ConcurrentDictionary<string, AgentState> linked = new(StringComparer.Ordinal);
    readonly ConcurrentQueue<AgentState> lost = new();
    readonly ConcurrentDictionary<string, CancellationTokenSource> sessions = new(StringComparer.Ordinal);
    long epochs;

    /// <summary>Registers a new link of <paramref name="name"/>; the older link of that name, if any, is told to end.</summary>
    public (AgentState State, CancellationToken Superseded) Link(string name, string? remote)
    {
        var state = new AgentState(name, Interlocked.Increment(ref epochs), remote);
        var superseded = new CancellationTokenSource();
        if (sessions.TryGetValue(name, out var older)) older.Cancel();
        sessions[name] = superseded;
        linked[name] = state;
        logger.LogInformation("Agent {Name} linked from {Remote} (epoch {Epoch})", name, remote, state.Epoch);
        return (state, superseded.Token);
    }

    /// <summary>Ends a link: the state moves to the lost list unless a newer link of the name has taken its place.</summary>
    public void Unlink(AgentState state, string reason)
    {
        state.EndedAt = DateTimeOffset.UtcNow;
        state.EndReason = reason;
        if (linked.TryGetValue(state.Name, out var current) && current == state)
        {
            linked.TryRemove(new KeyValuePair<string, AgentState>(state.Name, state));
            if (sessions.TryRemove(state.Name, out var session)) session.Dispose();
        }
        lost.Enqueue(state);
        while (lost.TryPeek(out var oldest) && oldest.EndedAt < DateTimeOffset.UtcNow - KeepLost) lost.TryDequeue(out _);
        logger.LogWarning("Agent {Name} (epoch {Epoch}) unlinked: {Reason}", state.Name, state.Epoch, reason);
    }

    public IReadOnlyList<AgentState> Linked => linked.Values.OrderBy(a => a.Name, StringComparer.Ordinal).ToList();

    public IReadOnlyList<AgentState> Lost => lost.Where(a => a.EndedAt >= DateTimeOffset.UtcNow - KeepLost).OrderByDescending(a => a.EndedAt).ToList();
}
