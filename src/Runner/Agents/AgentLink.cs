using System.Net;
using System.Net.WebSockets;
using System.Text;
using BenchDashboard.Core;
using BenchDashboard.Core.Agents;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace BenchDashboard.Runner.Agents;

/// <summary>
/// A runner in agent mode (issue 16): dials out to the dashboard's <see cref="AgentProtocol.Path"/> with its
/// name and key, says hello, estimates its clock offset (<see cref="ClockOffset"/>) and keeps the link alive
/// with heartbeats. When it hears nothing from the dashboard for <see cref="AgentProtocol.Lease"/> it takes the
/// dashboard as lost, drops the link (once agents run shards, whatever it was doing for the dashboard stops
/// there) and dials again, backing off from 1 s to 30 s. A refused key is retried slowly (every 30 s), as
/// an operator may be fixing it.
/// </summary>
public sealed class AgentLink(IOptions<RunnerOptions> options, ILogger<AgentLink> logger) : BackgroundService
{
    static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(30);

    public string Name { get; } = AgentNameOf(options.Value);

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
        await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Hello, Machine = Environment.MachineName, Version = AgentProtocol.Version }, session.Token);

        var pongs = System.Threading.Channels.Channel.CreateUnbounded<(long T0, long T1, long T2)>();
        var heard = Environment.TickCount64;
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
                            break;
                        case AgentFrameTypes.Pong when frame is { AgentTimeUs: { } t0, DashboardTimeUs: { } t1 }:
                            pongs.Writer.TryWrite((t0, t1, AgentProtocol.NowUs()));
                            break;
                        case AgentFrameTypes.Bye:
                            reason = $"the dashboard said goodbye: {frame.Reason}";
                            return;
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
            session.Cancel();
            socket.Abort();
        }
        return reason;
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
        if (ClockOffset.Best(exchanges) is not { } clock) return;
        await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Clock, OffsetMs = clock.OffsetMs, RoundTripMs = clock.RoundTripMs }, ct);
    }
}

/// <summary>The dashboard answered 401 or 403 to the agent's name and key.</summary>
sealed class AgentRefusedException : Exception;
