using System.Net.Http.Json;
using System.Net.WebSockets;
using BenchDashboard.Core.Agents;

namespace BenchDashboard.Web.Tests.Agents;

/// <summary>
/// The dashboard's side of the agents' protocol, talked to frame by frame by a test playing the agent over the
/// in-memory server's WebSocket (the real agents are tested as processes in <see cref="AgentLinkTests"/>).
/// </summary>
public sealed class AgentFrameTests
{
    static DashboardFactory Dashboard() => new(new() { ["Agents:Keys:alpha"] = "alpha-key" });

    static async Task<(WebSocket Socket, FrameLink Link)> LinkAsync(DashboardFactory app, string name = "alpha", string key = "alpha-key", string? baseUrl = null)
    {
        var client = app.Server.CreateWebSocketClient();
        client.ConfigureRequest = request =>
        {
            request.Headers[AgentProtocol.NameHeader] = name;
            request.Headers.Authorization = "Bearer " + key;
        };
        var socket = await client.ConnectAsync(new Uri("ws://localhost" + AgentProtocol.Path), CancellationToken.None);
        var link = new FrameLink(socket);
        await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Hello, Machine = "test", Version = AgentProtocol.Version, BaseUrl = baseUrl }, CancellationToken.None);
        // A heartbeat may come first.
        using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        AgentFrame? first;
        do first = await link.ReceiveAsync(patience.Token);
        while (first is { Type: AgentFrameTypes.Heartbeat });
        Assert.Equal(AgentFrameTypes.Welcome, first?.Type);
        return (socket, link);
    }

    [Fact]
    public async Task ADuplicatedNameSendsTheOlderLinkByeBeforeClosingIt()
    {
        await using var app = Dashboard();
        _ = app.CreateClient();
        var (olderSocket, older) = await LinkAsync(app);
        var (newerSocket, _) = await LinkAsync(app);

        using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        var frames = new List<AgentFrame>();
        while (await older.ReceiveAsync(patience.Token) is { } frame)
        {
            frames.Add(frame);
            if (frame.Type == AgentFrameTypes.Bye) break;
        }
        var bye = Assert.Single(frames, f => f.Type == AgentFrameTypes.Bye);
        Assert.Equal("a newer link of the same name replaced it", bye.Reason);
        // Then the close handshake, not a dropped connection.
        Assert.Null(await older.ReceiveAsync(patience.Token));
        Assert.Equal(WebSocketCloseStatus.NormalClosure, olderSocket.CloseStatus);
        Assert.Equal(WebSocketState.Open, newerSocket.State);
        olderSocket.Dispose();
        newerSocket.Dispose();
    }

    [Theory]
    [InlineData("https://bench-cfg1.azurewebsites.net/", "https://bench-cfg1.azurewebsites.net")]
    [InlineData("http://127.0.0.1:5071/site", "http://127.0.0.1:5071/site")]
    [InlineData("javascript:alert(1)", null)] // shown and linked to on pages: only an http(s) address is kept
    [InlineData("https://bench-cfg1.azurewebsites.net/?sig=secret", null)]
    [InlineData(null, null)]
    public async Task TheBaseUrlAnAgentSaysInItsHelloIsListedByTheApiAndTheAgentsPage(string? said, string? kept)
    {
        await using var app = Dashboard();
        var client = app.CreateClient();
        var (socket, _) = await LinkAsync(app, baseUrl: said);

        // The hello is read after the welcome is sent: wait until the registry has it.
        System.Text.Json.JsonElement agent = default;
        for (var tries = 0; tries < 100; tries++)
        {
            agent = (await client.GetFromJsonAsync<System.Text.Json.JsonElement>("/api/agents")).EnumerateArray().Single(a => a.GetProperty("name").GetString() == "alpha");
            if (agent.GetProperty("machine").GetString() == "test") break;
            await Task.Delay(50);
        }
        Assert.Equal("test", agent.GetProperty("machine").GetString());
        Assert.Equal(kept, agent.GetProperty("baseUrl").GetString());
        var page = System.Net.WebUtility.HtmlDecode(await client.GetStringAsync("/agents"));
        Assert.Contains($"<td data-field=\"base-url\">{kept ?? "–"}</td>", page);
        socket.Abort();
    }

    [Fact]
    public async Task AnAgentThatSaysDoneWithNoSamplesFailsItsShardAndTheRun()
    {
        await using var app = Dashboard();
        var client = app.CreateClient();
        var (socket, link) = await LinkAsync(app);
        using var end = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        // The agent's side: heartbeats for its lease; ready when assigned, started when told, then done having measured nothing.
        var heartbeats = Task.Run(async () =>
        {
            while (!end.IsCancellationRequested)
            {
                await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Heartbeat }, end.Token);
                await Task.Delay(500, end.Token);
            }
        });
        var agent = Task.Run(async () =>
        {
            while (await link.ReceiveAsync(end.Token) is { } frame)
            {
                var lease = new { frame.RunId, frame.Shard, frame.Epoch };
                if (frame.Type == AgentFrameTypes.Assign)
                    await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Ready, RunId = lease.RunId, Shard = lease.Shard, Epoch = lease.Epoch }, end.Token);
                else if (frame.Type == AgentFrameTypes.Start)
                {
                    await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Started, RunId = lease.RunId, Shard = lease.Shard, Epoch = lease.Epoch, DashboardTimeUs = frame.DashboardTimeUs, RoundTripMs = 0.1 }, end.Token);
                    await link.SendAsync(new AgentFrame { Type = AgentFrameTypes.Done, RunId = lease.RunId, Shard = lease.Shard, Epoch = lease.Epoch, Samples = 0, Frames = 0 }, end.Token);
                }
            }
        });

        var id = await DashboardFactory.CreateRunAsync(client, new { kind = "http", url = "http://127.0.0.1:1/", requests = 50, agents = 1 });
        var run = await DashboardFactory.WaitForEndAsync(client, id);
        await end.CancelAsync();

        Assert.Equal("failed", run.GetProperty("status").GetString());
        Assert.Contains("said done having measured no samples", run.GetProperty("error").GetString());
        socket.Abort();
        await Task.WhenAll(heartbeats, agent).ContinueWith(_ => { });
    }
}
