using System.Net.WebSockets;
using System.Text.Json;

namespace BenchDashboard.Core.Agents;

/// <summary>
/// <see cref="AgentFrame"/>s over a WebSocket, as JSON text messages, for either side. Sends are serialised
/// (a WebSocket takes one send at a time); a message larger than <see cref="AgentProtocol.MaxFrameBytes"/> or
/// not a frame ends the link.
/// </summary>
public sealed class FrameLink(WebSocket socket)
{
    readonly SemaphoreSlim sending = new(1, 1);
    readonly byte[] buffer = new byte[AgentProtocol.MaxFrameBytes];

    public async Task SendAsync(AgentFrame frame, CancellationToken ct)
    {
        var bytes = JsonSerializer.SerializeToUtf8Bytes(frame, Json.Options);
        await sending.WaitAsync(ct);
        try
        {
            await socket.SendAsync(bytes, WebSocketMessageType.Text, endOfMessage: true, ct);
        }
        finally
        {
            sending.Release();
        }
    }

    /// <summary>The next frame, or null when the other side closed the link.</summary>
    public async Task<AgentFrame?> ReceiveAsync(CancellationToken ct)
    {
        var length = 0;
        while (true)
        {
            if (length == buffer.Length) throw new InvalidDataException($"A frame longer than {AgentProtocol.MaxFrameBytes:N0} bytes.");
            var result = await socket.ReceiveAsync(buffer.AsMemory(length), ct);
            if (result.MessageType == WebSocketMessageType.Close) return null;
            length += result.Count;
            if (result.EndOfMessage) break;
        }
        return JsonSerializer.Deserialize<AgentFrame>(buffer.AsSpan(0, length), Json.Options)
            ?? throw new InvalidDataException("A null frame.");
    }
}
