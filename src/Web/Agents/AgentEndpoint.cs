using System.Net.WebSockets;
using BenchDashboard.Core.Agents;
using BenchDashboard.Web.Agents;

namespace BenchDashboard.Web.Agents;

/// <summary>
/// <see cref="AgentProtocol.Path"/>: where agents dial in. A WebSocket upgrade with a known name and its key
/// (else 401), over TLS outside Development (else 403, so a key never crosses a network in clear; behind App
/// Service the front end's <c>X-Forwarded-Proto: https</c> counts, as a configured proxy's would (Proxies:*), and <c>Agents:AllowInsecure=true</c> allows
/// plain ws:// on a trusted network). The link then lives while frames come at least every lease: any frame
/// renews it, pings are answered with the dashboard's clock, and the dashboard sends its own heartbeat.
/// </summary>
public static class AgentEndpoint
{
    public static void MapAgents(this IEndpointRouteBuilder app)
    {
        app.Map(AgentProtocol.Path, ConnectAsync).ExcludeFromDescription();
        app.MapGet("/api/agents", (AgentRegistry registry) => TypedResults.Ok(AgentDto.List(registry))).WithTags("Agents");
    }

    static async Task ConnectAsync(HttpContext context, AgentKeys keys, AgentRegistry registry, AgentRunCoordinator runs, IHostEnvironment environment,
        Microsoft.Extensions.Options.IOptions<AgentRunOptions> options, IHostApplicationLifetime lifetime)
    {
        if (!context.WebSockets.IsWebSocketRequest)
        {
            await Results.Problem(statusCode: 400, title: "A WebSocket upgrade is expected", detail: $"Agents link with a WebSocket to {AgentProtocol.Path}.").ExecuteAsync(context);
            return;
        }
        // The scheme as a trusted proxy reported it (Proxies:*, App Service's front end), never as the client claims.
        var secure = context.Request.IsHttps;
        if (!secure && !environment.IsDevelopment() && !options.Value.AllowInsecure)
        {
            await Results.Problem(statusCode: 403, title: "wss:// is required", detail: "Agents link over TLS (wss://) outside Development, so their keys never cross a network in clear; set Agents:AllowInsecure=true only on a trusted network.").ExecuteAsync(context);
            return;
        }
        var (name, key) = AgentKeys.Presented(context.Request);
        if (!keys.Matches(name, key))
        {
            context.Response.Headers.WWWAuthenticate = "Bearer";
            await Results.Problem(statusCode: 401, title: "Unknown agent or wrong key", detail: $"Send the agent's name in {AgentProtocol.NameHeader} and its key (Agents:Keys:<name> here) as Authorization: Bearer.").ExecuteAsync(context);
            return;
        }

        using var socket = await context.WebSockets.AcceptWebSocketAsync();
        var (state, superseded) = registry.Link(name!, context.Connection.RemoteIpAddress?.ToString());
        using var session = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted);
        var link = new FrameLink(socket);
        state.Link = link;
        var reason = "the agent closed the link";
        string? stopReason = null;
        // Replaced by a newer link, or the dashboard stopping: say goodbye first (the agent stops at once
        // rather than after its lease), then end the session.
        using var stopping = CancellationTokenSource.CreateLinkedTokenSource(superseded, lifetime.ApplicationStopping);
        using var onStop = stopping.Token.Register(() => _ = Task.Run(async () =>
        {
            stopReason = superseded.IsCancellationRequested ? "a newer link of the same name replaced it" : "the dashboard stopped";
            await TrySayAsync(link, stopReason);
            try { session.Cancel(); } catch (ObjectDisposedException) { /* the session had ended already */ }
        }));
        var heartbeats = Task.Run(async () =>
        {
            while (!session.IsCancellationRequested)
            {
                await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Heartbeat }, session.Token);
                await Task.Delay(AgentProtocol.Heartbeat, session.Token);
            }
        });
        try
        {
            await link.SendAsync(new AgentFrame
            {
                Type = AgentFrameTypes.Welcome, Epoch = state.Epoch, Version = AgentProtocol.Version,
                LeaseMs = (int)AgentProtocol.Lease.TotalMilliseconds, HeartbeatMs = (int)AgentProtocol.Heartbeat.TotalMilliseconds,
            }, session.Token);
            while (true)
            {
                // The lease: a frame must come within it, or the agent is taken as lost.
                using var expiry = new CancellationTokenSource(AgentProtocol.Lease);
                using var lease = CancellationTokenSource.CreateLinkedTokenSource(session.Token, expiry.Token);
                LinkMessage? message;
                try
                {
                    message = await link.ReceiveMessageAsync(lease.Token);
                }
                catch (OperationCanceledException) when (expiry.IsCancellationRequested)
                {
                    // (Cancelling the receive aborts the socket, which may abort the request too: the timer says why.)
                    reason = $"nothing heard for {AgentProtocol.Lease.TotalSeconds:N0} s (its lease)";
                    break;
                }
                if (message is not { } received) break;
                state.LastHeard = DateTimeOffset.UtcNow;
                if (received.Frame is not { } frame)
                {
                    // Samples of the run under way: handed to the run's sample writer, then acknowledged, before the next
                    // message is read. A writer that falls behind fills its buffer and stops the run, as for the
                    // dashboard's own runner; until then the window keeps each agent at most 16 frames ahead.
                    if (runs.Current?.OnSamples(state, received.Samples.Span) is { } ack) await link.SendAsync(ack, session.Token);
                    continue;
                }
                switch (frame.Type)
                {
                    case AgentFrameTypes.Hello:
                        state.Machine = frame.Machine is { Length: <= 200 } machine ? machine : null;
                        state.Version = frame.Version;
                        state.BaseUrl = AgentBaseUrl.Normalize(frame.BaseUrl); // only an http(s) address: it is shown and linked to
                        state.Environment = AgentRun.TryParseEnvironment(frame.EnvironmentJson);
                        break;
                    case AgentFrameTypes.Ping:
                        await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Pong, AgentTimeUs = frame.AgentTimeUs, DashboardTimeUs = AgentProtocol.NowUs() }, session.Token);
                        break;
                    case AgentFrameTypes.Clock when frame is { OffsetMs: { } offset, RoundTripMs: { } roundTrip } && double.IsFinite(offset) && double.IsFinite(roundTrip):
                        state.Clock = new ClockOffset(offset, roundTrip);
                        break;
                    case AgentFrameTypes.Ready or AgentFrameTypes.Started or AgentFrameTypes.Done:
                        runs.Current?.OnFrame(state, frame);
                        break;
                }
            }
        }
        catch (OperationCanceledException) when (session.IsCancellationRequested)
        {
            reason = stopReason ?? "the connection was lost";
        }
        catch (Exception ex) when (ex is WebSocketException or InvalidDataException or System.Text.Json.JsonException)
        {
            reason = $"the link broke: {ex.Message}";
        }
        finally
        {
            session.Cancel();
            try { await heartbeats; } catch (Exception) { /* ended with the session */ }
            socket.Abort();
            registry.Unlink(state, reason);
            runs.Current?.OnUnlinked(state, reason);
        }
    }

    /// <summary>The bye frame, then the close handshake: the socket is aborted only after both went out, so the frame is not lost with it.</summary>
    static async Task TrySayAsync(FrameLink link, string reason)
    {
        try
        {
            using var brief = new CancellationTokenSource(TimeSpan.FromSeconds(1));
            await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Bye, Reason = reason }, brief.Token);
            await link.CloseOutputAsync(reason, brief.Token);
        }
        catch (Exception)
        {
            // The agent's lease notices anyway.
        }
    }
}

/// <summary>An agent for <c>GET /api/agents</c>: times in UTC, the clock offset (dashboard − agent) and the round trip it was measured over.</summary>
/// <param name="BaseUrl">The agent's own public base address as it said in its hello (<c>Runner:PublicUrl</c>, or its App Service host name); null when it has none.</param>
/// <param name="Environment">What the agent recorded of itself when it linked: its platform variables (WEBSITE_*) and process id.</param>
public sealed record AgentDto(string Name, long Epoch, bool Linked, string? Machine, string? Remote, DateTimeOffset LinkedAt, DateTimeOffset LastHeard,
    double? ClockOffsetMs, double? ClockRoundTripMs, DateTimeOffset? EndedAt, string? EndReason, string? BaseUrl, Core.Runs.EnvironmentSnapshot? Environment)
{
    static AgentDto From(AgentState a) =>
        new(a.Name, a.Epoch, a.Linked, a.Machine, a.Remote, a.LinkedAt, a.LastHeard, a.Clock?.OffsetMs, a.Clock?.RoundTripMs, a.EndedAt, a.EndReason, a.BaseUrl, a.Environment);

    public static IReadOnlyList<AgentDto> List(AgentRegistry registry) => registry.Linked.Concat(registry.Lost).Select(From).ToList();
}
