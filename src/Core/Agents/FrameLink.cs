using System.Net.WebSockets;
using System.Text.Json;

namespace BenchDashboard.Core.Agents;

/// <summary>
/// <see cref="AgentFrame"/>s over a WebSocket, as JSON text messages, and sample frames as binary ones, for either
/// side. Sends are serialised (a WebSocket takes one send at a time); a message larger than
/// <see cref="AgentProtocol.MaxFrameBytes"/> or not a frame ends the link.
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

    /// <summary>Starts the close handshake after any send under way (a WebSocket takes one send at a time).</summary>
    public async Task CloseOutputAsync(string reason, CancellationToken ct)
    {
        await sending.WaitAsync(ct);
        try
        {
            if (socket.State == WebSocketState.Open)
                await socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, reason.Length > 100 ? reason[..100] : reason, ct);
        }
        finally
        {
            sending.Release();
        }
    }

    /// <summary>A sample frame (<see cref="SampleFrames"/>), as a binary message.</summary>
    public async Task SendSamplesAsync(byte[] frame, CancellationToken ct)
    {
        await sending.WaitAsync(ct);
        try
        {
            await socket.SendAsync(frame, WebSocketMessageType.Binary, endOfMessage: true, ct);
        }
        finally
        {
            sending.Release();
        }
    }

    /// <summary>The next control frame, or null when the other side closed the link; a sample frame is refused (agents are sent none).</summary>
    public async Task<AgentFrame?> ReceiveAsync(CancellationToken ct) =>
        await ReceiveMessageAsync(ct) switch
        {
            null => null,
            { Frame: { } frame } => frame,
            _ => throw new InvalidDataException("A sample frame where a control frame was expected."),
        };

    /// <summary>
    /// The next message: a control frame, or a sample frame's bytes (valid until the next receive, as they are
    /// this link's buffer); null when the other side closed the link.
    /// </summary>
    public async Task<LinkMessage?> ReceiveMessageAsync(CancellationToken ct)
    {
        var length = 0;
        ValueWebSocketReceiveResult result;
        while (true)
        {
            if (length == buffer.Length) throw new InvalidDataException($"A message longer than {AgentProtocol.MaxFrameBytes:N0} bytes.");
            result = await socket.ReceiveAsync(buffer.AsMemory(length), ct);
            if (result.MessageType == WebSocketMessageType.Close) return null;
            length += result.Count;
            if (result.EndOfMessage) break;
        }
        if (result.MessageType == WebSocketMessageType.Binary) return new LinkMessage(null, buffer.AsMemory(0, length));
        return new LinkMessage(JsonSerializer.Deserialize<AgentFrame>(buffer.AsSpan(0, length), Json.Options) ?? throw new InvalidDataException("A null frame."), default);
    }
}

/// <summary>A message of the link: a control <see cref="Frame"/>, or else the bytes of a sample frame.</summary>
public readonly record struct LinkMessage(AgentFrame? Frame, ReadOnlyMemory<byte> Samples);
