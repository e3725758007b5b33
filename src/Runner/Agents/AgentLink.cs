using System.Net;
using System.Net.WebSockets;
using System.Text;
using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using BenchDashboard.Processing;
using BenchDashboard.Processing.Executing;
using BenchDashboard.ServiceDefaults;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Agents;

/// <summary>
/// A runner in agent mode: dials out to the dashboard's <see cref="AgentProtocol.Path"/> with its
/// name and key, says hello, estimates its clock offset (<see cref="ClockOffset"/>) and keeps the link alive
/// with heartbeats, and runs the shards of runs the dashboard leases to it (<see cref="AgentShard"/>), one at a
/// time. When it hears nothing from the dashboard for <see cref="AgentProtocol.Lease"/> it takes the dashboard as
/// lost, drops the link (a shard's load stops there) and dials again, backing off from 1 s to 30 s. A refused key is retried slowly (every 30 s), as
/// an operator may be fixing it.
/// </summary>
public sealed class AgentLink(IOptions<RunnerOptions> options, BenchDashboard.Processing.Executing.KindExecutors executors, ILogger<AgentLink> logger) : BackgroundService
{
    static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(30);

    /// <summary>This agent's clock against the dashboard's, from the latest exchanges of the current link; null before the first.</summary>
    volatile ClockOffset? clock;

    public string Name { get; } = AgentNameOf(options.Value);

    /// <summary>This agent's own public address, sent in its hello (<see cref="AgentBaseUrl.Resolve"/>); null when it has none.</summary>
    public string? BaseUrl { get; } = AgentBaseUrl.Resolve(options.Value.PublicUrl, Environment.GetEnvironmentVariable("WEBSITE_HOSTNAME"));

    /// <summary>Whether the dashboard has welcomed this agent over the current link (a configuration's page and health say so).</summary>
    public bool Linked => Volatile.Read(ref linked);
    bool linked;

    public static string AgentNameOf(RunnerOptions o) =>
        string.IsNullOrWhiteSpace(o.AgentName) ? new string(Environment.MachineName.Where(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.').ToArray()) : o.AgentName.Trim();

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var o = options.Value;
        if (!Uri.TryCreate(o.Coordinator, UriKind.Absolute, out var coordinator) || coordinator.Scheme is not ("http" or "https"))
        {
            logger.LogCritical("Runner:Coordinator must be the dashboard's http(s):// address; got '{Coordinator}'. The agent does nothing.", o.Coordinator);
            return;
        }
        if (!string.IsNullOrWhiteSpace(o.PublicUrl) && BaseUrl is null)
            logger.LogWarning("Runner:PublicUrl must be an http(s):// address without a query; got '{PublicUrl}'. The agent links without one.", o.PublicUrl);
        if (string.IsNullOrEmpty(o.AgentKey) || !AgentProtocol.IsValidName(Name))
        {
            logger.LogCritical("Runner:AgentKey must be set and Runner:AgentName be 1 to 64 letters, digits, '-', '_' or '.' (it is '{Name}'). The agent does nothing.", Name);
            return;
        }
        var endpoint = new UriBuilder(coordinator) { Scheme = coordinator.Scheme == "https" ? "wss" : "ws", Path = AgentProtocol.Path }.Uri;
        var backoff = TimeSpan.FromSeconds(1);
        while (!stoppingToken.IsCancellationRequested)
        {
            string why;
            try
            {
                why = await SessionAsync(endpoint, o.AgentKey, stoppingToken);
                backoff = TimeSpan.FromSeconds(1); // it was connected: start over
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }
            catch (AgentRefusedException)
            {
                logger.LogError("The dashboard at {Coordinator} refused agent '{Name}': wrong or unknown key (Agents:Keys:{Name} there). Trying again in 30 s.", coordinator, Name, Name);
                await Task.Delay(MaxBackoff, stoppingToken).ContinueWith(_ => { });
                continue;
            }
            catch (Exception ex)
            {
                why = $"{ex.GetType().Name}: {ex.Message}";
            }
            logger.LogWarning("Link to the dashboard lost ({Why}); dialling again in {Seconds:N0} s", why, backoff.TotalSeconds);
            await Task.Delay(backoff, stoppingToken).ContinueWith(_ => { });
            backoff = TimeSpan.FromTicks(Math.Min(backoff.Ticks * 2, MaxBackoff.Ticks));
        }
    }

    /// <summary>One connection, until it is lost; returns why it ended.</summary>
    async Task<string> SessionAsync(Uri endpoint, string key, CancellationToken stoppingToken)
    {
        using var socket = new ClientWebSocket();
        socket.Options.SetRequestHeader("Authorization", "Bearer " + key);
        socket.Options.SetRequestHeader(AgentProtocol.NameHeader, Name);
        socket.Options.KeepAliveInterval = TimeSpan.Zero; // our own heartbeats and lease decide
        socket.Options.CollectHttpResponseDetails = true;
        using (var connectTimeout = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken))
        {
            connectTimeout.CancelAfter(TimeSpan.FromSeconds(10));
            try
            {
                await socket.ConnectAsync(endpoint, connectTimeout.Token);
            }
            catch (WebSocketException) when (socket.HttpStatusCode is HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden)
            {
                throw new AgentRefusedException();
            }
        }
        using var session = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
        var link = new FrameLink(socket);
        // Its environment from the start, so /agents shows which configuration (WEBSITE_* settings, process) each agent is before any run.
        await link.SendAsync(new AgentFrame
        {
            Type = AgentFrameTypes.Hello, Machine = Environment.MachineName, Version = AgentProtocol.Version, BaseUrl = BaseUrl,
            EnvironmentJson = Json.Serialize(Core.Runs.EnvironmentSnapshot.Capture()),
        }, session.Token);

        var pongs = System.Threading.Channels.Channel.CreateUnbounded<(long T0, long T1, long T2)>();
        var heard = Environment.TickCount64;
        AgentShard? shard = null;
        var stoppedRuns = new System.Collections.Concurrent.ConcurrentDictionary<long, byte>(); // runs the dashboard said stop to, over this link
        clock = null; // measured again over this link
        var reason = "the dashboard closed the link";
        var receiving = Task.Run(async () =>
        {
            try
            {
                while (await link.ReceiveAsync(session.Token) is { } frame)
                {
                    Volatile.Write(ref heard, Environment.TickCount64);
                    switch (frame.Type)
                    {
                        case AgentFrameTypes.Welcome:
                            logger.LogInformation("Agent '{Name}' linked to the dashboard as epoch {Epoch}", Name, frame.Epoch);
                            Volatile.Write(ref linked, true);
                            break;
                        case AgentFrameTypes.Pong when frame is { AgentTimeUs: { } t0, DashboardTimeUs: { } t1 }:
                            pongs.Writer.TryWrite((t0, t1, AgentProtocol.NowUs()));
                            break;
                        case AgentFrameTypes.Bye:
                            reason = $"the dashboard said goodbye: {frame.Reason}";
                            return;
                        case AgentFrameTypes.Assign:
                            if (shard is { Begun: true, Finished.IsCompleted: false } busy && busy.RunId != frame.RunId)
                            {
                                await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Ready, RunId = frame.RunId, Shard = frame.Shard, Epoch = frame.Epoch, Reason = $"it is running shard {busy.Shard} of run {busy.RunId}", Busy = true }, session.Token);
                                break;
                            }
                            shard?.Stop("the dashboard leased this agent another shard");
                            // Not awaited here: getting ready waits for the clock, whose pongs this loop receives.
                            _ = Task.Run(async () =>
                            {
                                try
                                {
                                    await AssignAsync(link, frame, taken =>
                                    {
                                        // A stop that came while it got ready (the run failed meanwhile) stops it at once.
                                        if (stoppedRuns.ContainsKey(taken.RunId)) taken.Stop("the dashboard said stop before it was ready");
                                        shard = taken;
                                    }, session.Token);
                                }
                                catch (Exception ex) when (session.IsCancellationRequested || ex is System.Net.WebSockets.WebSocketException)
                                {
                                }
                            });
                            break;
                        case AgentFrameTypes.Start when shard is { } s && frame.RunId == s.RunId && frame.DashboardTimeUs is { } at && clock is { } measured:
                            logger.LogInformation("Run {RunId} shard {Shard}: starting at {At:O} on the dashboard's clock", s.RunId, s.Shard, DateTime.UnixEpoch.AddTicks(at * 10));
                            _ = s.RunAsync(at, measured, session.Token);
                            break;
                        case AgentFrameTypes.Stop when frame.RunId is { } stoppedRun:
                            stoppedRuns[stoppedRun] = 0;
                            if (shard is { } held && held.RunId == stoppedRun)
                            {
                                logger.LogInformation("Run {RunId} shard {Shard}: the dashboard said stop ({Reason})", held.RunId, held.Shard, frame.Reason);
                                held.Stop(frame.Reason ?? "the dashboard said stop");
                            }
                            break;
                        case AgentFrameTypes.Ack when shard is { } s && frame.Shard == s.Shard && frame.Epoch == s.Epoch && frame.Acked is { } acked:
                            s.Acknowledge(acked);
                            break;
                    }
                }
            }
            catch (Exception) when (session.IsCancellationRequested)
            {
            }
            catch (Exception ex)
            {
                reason = $"{ex.GetType().Name}: {ex.Message}";
            }
        });

        try
        {
            var nextClock = 0L;
            var nextHeartbeat = 0L;
            while (!receiving.IsCompleted)
            {
                // The lease: nothing heard for that long means the dashboard is gone, whatever the socket says.
                var silent = Environment.TickCount64 - Volatile.Read(ref heard);
                if (silent > AgentProtocol.Lease.TotalMilliseconds)
                {
                    reason = $"nothing heard from the dashboard for {silent / 1000.0:N2} s (lease {AgentProtocol.Lease.TotalSeconds:N0} s)";
                    break;
                }
                if (Environment.TickCount64 >= nextClock)
                {
                    await MeasureClockAsync(link, pongs.Reader, session.Token);
                    nextClock = Environment.TickCount64 + (long)AgentProtocol.ClockInterval.TotalMilliseconds;
                }
                if (Environment.TickCount64 >= nextHeartbeat)
                {
                    await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Heartbeat }, session.Token);
                    nextHeartbeat = Environment.TickCount64 + (long)AgentProtocol.Heartbeat.TotalMilliseconds;
                }
                // The lease is checked four times a heartbeat, so a lost dashboard is noticed within a quarter second of it.
                await Task.WhenAny(receiving, Task.Delay(AgentProtocol.Heartbeat / 4, session.Token));
            }
        }
        finally
        {
            Volatile.Write(ref linked, false);
            shard?.Abandon(); // a lost dashboard must never leave this agent loading a target
            session.Cancel();
            socket.Abort();
        }
        return reason;
    }

    /// <summary>
    /// Takes a shard: checks that this agent can run its kind and that its own target policy allows the targets
    /// (the agent sends the traffic), waits for a first clock offset, then says ready, with its environment,
    /// or why not.
    /// </summary>
    async Task AssignAsync(FrameLink link, AgentFrame assign, Action<AgentShard> took, CancellationToken ct)
    {
        // A share of a divided load only for a kind whose load divides; the whole workload (a run on each agent) for
        // any kind, measuring what this agent reaches (its own disks, its region's latency to a cache or table).
        var found = executors.Find(assign.Kind);
        var executor = found is { } f && (f.Kind.SpreadsOverAgents || assign.WholeWorkload == true) ? f.Executor : null;
        string? refusal;
        if (executor is null) refusal = $"this agent cannot run {assign.Kind} runs";
        else if (assign is not { RunId: not null, Shard: not null, Epoch: not null, ParametersJson: { } parameters }) refusal = "the assignment was incomplete";
        else
        {
            try
            {
                refusal = await executor.RefusalAsync(parameters, ct);
            }
            catch (System.Text.Json.JsonException ex)
            {
                refusal = $"its parameters could not be read: {ex.Message}";
            }
        }
        if (refusal is null)
        {
            // Its start is placed on the dashboard's clock through the offset: no offset, no start.
            for (var waited = 0; clock is null && waited < 100; waited++) await Task.Delay(50, ct);
            if (clock is null) refusal = "its clock offset to the dashboard could not be measured within 5 s";
        }
        if (refusal is null)
        {
            // The path that wakes for the start, once now: its first call compiles it, which made a first start ~20 ms late.
            await Task.Run(() => PreciseSleep.Until(System.Diagnostics.Stopwatch.GetTimestamp() + System.Diagnostics.Stopwatch.Frequency / 1000, ct), ct);
            took(new AgentShard(assign, found!.Value.Kind, executor!, link));
            logger.LogInformation("Run {RunId}: shard {Shard} leased to this agent (epoch {Epoch})", assign.RunId, assign.Shard, assign.Epoch);
        }
        else logger.LogWarning("Run {RunId}: refused shard {Shard}: {Reason}", assign.RunId, assign.Shard, refusal);
        await link.SendAsync(new AgentFrame
        {
            Type = AgentFrameTypes.Ready, RunId = assign.RunId, Shard = assign.Shard, Epoch = assign.Epoch, Reason = refusal,
            EnvironmentJson = refusal is null ? Json.Serialize(Core.Runs.EnvironmentSnapshot.Capture()) : null,
        }, ct);
    }

    /// <summary>Several ping/pong exchanges; the one with the shortest round trip gives the offset, which the dashboard is told.</summary>
    async Task MeasureClockAsync(FrameLink link, System.Threading.Channels.ChannelReader<(long, long, long)> pongs, CancellationToken ct)
    {
        var exchanges = new List<(long, long, long)>();
        for (var i = 0; i < AgentProtocol.ClockExchanges; i++)
        {
            await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Ping, AgentTimeUs = AgentProtocol.NowUs() }, ct);
            using var wait = CancellationTokenSource.CreateLinkedTokenSource(ct);
            wait.CancelAfter(AgentProtocol.Heartbeat);
            try
            {
                exchanges.Add(await pongs.ReadAsync(wait.Token));
            }
            catch (OperationCanceledException) when (!ct.IsCancellationRequested)
            {
                break; // no answer within a heartbeat: estimate from what came back
            }
        }
        if (ClockOffset.Best(exchanges) is not { } measured) return;
        clock = measured;
        await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Clock, OffsetMs = measured.OffsetMs, RoundTripMs = measured.RoundTripMs }, ct);
    }
}

/// <summary>The dashboard answered 401 or 403 to the agent's name and key.</summary>
sealed class AgentRefusedException : Exception;
